import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../web/src/api/types.ts';
import {
  INITIAL_STREAM_STATE,
  mergeEvents,
  streamReducer,
  type StreamState,
} from '../../web/src/session/stream-reducer.ts';

const event = (
  seq: number,
  type = 'chat.message',
  payload: unknown = { v: 1, text: `#${seq}` },
): StoredEvent => ({
  id: `e${seq}`,
  session_id: 's',
  seq,
  type,
  actor: 'user',
  payload,
  created_at: '',
});
const delta = (turn: string, text: string) => ({
  type: 'delta' as const,
  delta: { session_id: 's', agent: 'criativo', turn_id: turn, text },
});

describe('the live session stream', () => {
  it('keeps each seq once, whatever is replayed after a reconnect', () => {
    const held = [event(1), event(2), event(3)];
    expect(mergeEvents(held, [event(2), event(3)])).toBe(held);
    expect(mergeEvents(held, [event(3), event(4), event(5)]).map((e) => e.seq)).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(mergeEvents([event(1), event(3)], [event(2)]).map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it('accumulates deltas per turn and drops them when the stored response (or a failure) arrives', () => {
    let state: StreamState = streamReducer(INITIAL_STREAM_STATE, {
      type: 'loaded',
      events: [event(1)],
    });
    state = [delta('t1', 'Hello '), delta('t1', 'there'), delta('t2', 'Other')].reduce(
      streamReducer,
      state,
    );
    expect(state.live).toEqual([
      { turnId: 't1', agent: 'criativo', text: 'Hello there' },
      { turnId: 't2', agent: 'criativo', text: 'Other' },
    ]);
    state = streamReducer(state, {
      type: 'events',
      events: [
        event(2, 'agent.response', { v: 1, agent: 'criativo', text: 'Hello there', turn_id: 't1' }),
      ],
    });
    expect(state.live.map((live) => live.turnId)).toEqual(['t2']);
    state = streamReducer(state, {
      type: 'done',
      done: { session_id: 's', agent: 'criativo', turn_id: 't2', status: 'failed' },
    });
    expect(state.live).toEqual([]);
  });

  it('takes the text so far of a turn running when the stream opened, without doubling it on a reconnect', () => {
    const partial = (turn: string, text: string) => ({
      type: 'partial' as const,
      partial: { session_id: 's', agent: 'criativo', turn_id: turn, text },
    });
    let state: StreamState = streamReducer(INITIAL_STREAM_STATE, {
      type: 'loaded',
      events: [event(1)],
    });
    state = [partial('t1', 'Olá, tudo '), delta('t1', 'bem')].reduce(streamReducer, state);
    expect(state.live).toEqual([{ turnId: 't1', agent: 'criativo', text: 'Olá, tudo bem' }]);
    state = [partial('t1', 'Olá, tudo bem'), delta('t1', '?')].reduce(streamReducer, state);
    expect(state.live).toEqual([{ turnId: 't1', agent: 'criativo', text: 'Olá, tudo bem?' }]);
    state = streamReducer(state, {
      type: 'events',
      events: [
        event(2, 'agent.response', {
          v: 1,
          agent: 'criativo',
          text: 'Olá, tudo bem?',
          turn_id: 't1',
        }),
      ],
    });
    expect(streamReducer(state, partial('t1', 'Olá')).live).toEqual([]);
  });

  it('tracks the connection', () => {
    const reconnecting = streamReducer(INITIAL_STREAM_STATE, {
      type: 'connection',
      connection: 'reconnecting',
    });
    expect(reconnecting.connection).toBe('reconnecting');
    expect(streamReducer(reconnecting, { type: 'connection', connection: 'reconnecting' })).toBe(
      reconnecting,
    );
  });
});
