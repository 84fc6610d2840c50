import type { AgentDelta, AgentDone, StoredEvent } from '../api/types.ts';
import { readSessionEvent } from './fold/fold-event.ts';

/** Text of a turn as it streams; replaced by the stored `agent.response` when that arrives. */
export type LiveText = { turnId: string; agent: string; text: string };

export type Connection = 'connecting' | 'open' | 'reconnecting';

export type StreamState = {
  phase: 'loading' | 'ready' | 'failed';
  error: unknown;
  events: StoredEvent[];
  live: LiveText[];
  connection: Connection;
};

export type StreamAction =
  | { type: 'loaded'; events: StoredEvent[] }
  | { type: 'failed'; error: unknown }
  | { type: 'events'; events: StoredEvent[] }
  | { type: 'delta'; delta: AgentDelta }
  | { type: 'partial'; partial: AgentDelta }
  | { type: 'done'; done: AgentDone }
  | { type: 'connection'; connection: Connection };

export const INITIAL_STREAM_STATE: StreamState = {
  phase: 'loading',
  error: null,
  events: [],
  live: [],
  connection: 'connecting',
};

/** Events that end what a turn streamed: the stored text (or the failure) takes the streamed text's place. */
const ENDS_STREAMED_TEXT = new Set([
  'agent.response',
  'turn.failed',
  'turn.completed',
  'toolloop.limit_reached',
  'turn.stopped',
]);

export function streamReducer(state: StreamState, action: StreamAction): StreamState {
  switch (action.type) {
    case 'loaded':
      return { ...state, phase: 'ready', error: null, events: mergeEvents([], action.events) };
    case 'failed':
      return { ...state, phase: 'failed', error: action.error };
    case 'events': {
      const events = mergeEvents(state.events, action.events);
      if (events === state.events) return state;
      const ended = new Set(
        action.events
          .filter((event) => ENDS_STREAMED_TEXT.has(event.type))
          .map((event) => turnIdOf(event)),
      );
      return {
        ...state,
        events,
        live: ended.size === 0 ? state.live : state.live.filter((live) => !ended.has(live.turnId)),
      };
    }
    case 'delta': {
      const { turn_id: turnId, agent, text } = action.delta;
      if (typeof text !== 'string' || text === '') return state;
      const known = state.live.find((live) => live.turnId === turnId);
      const live = known
        ? state.live.map((entry) =>
            entry === known ? { ...entry, text: entry.text + text } : entry,
          )
        : [...state.live, { turnId, agent, text }];
      return { ...state, live };
    }
    case 'partial': {
      // The whole text so far of a turn running when the stream opened: it replaces what this tab held (a reconnect
      // must not double it), unless the turn already ended in the events this tab holds.
      const { turn_id: turnId, agent, text } = action.partial;
      if (typeof text !== 'string') return state;
      if (
        state.events.some(
          (event) => ENDS_STREAMED_TEXT.has(event.type) && turnIdOf(event) === turnId,
        )
      )
        return state;
      const live = [
        ...state.live.filter((entry) => entry.turnId !== turnId),
        { turnId, agent, text },
      ];
      return { ...state, live };
    }
    case 'done':
      // A failed turn's partial text is not the answer; the stored `turn.failed` says what happened.
      return action.done.status === 'failed'
        ? { ...state, live: state.live.filter((live) => live.turnId !== action.done.turn_id) }
        : state;
    case 'connection':
      return state.connection === action.connection
        ? state
        : { ...state, connection: action.connection };
  }
}

/** Adds events by seq: one already held is skipped (a replay after reconnecting), order is kept. */
export function mergeEvents(held: StoredEvent[], incoming: StoredEvent[]): StoredEvent[] {
  let merged = held;
  for (const event of incoming) {
    const last = merged.at(-1);
    if (last === undefined || event.seq > last.seq) {
      if (merged === held) merged = [...held, event];
      else merged.push(event);
    } else if (!merged.some((existing) => existing.seq === event.seq)) {
      merged = [...merged, event].sort((a, b) => a.seq - b.seq);
    }
  }
  return merged;
}

/** The turn a stored event ends, read by its kind's schema (ADR 0400). */
function turnIdOf(event: StoredEvent): string | undefined {
  const reading = readSessionEvent(event);
  if (reading.kind !== 'typed') return undefined;
  const { payload } = reading.event;
  return 'turn_id' in payload ? payload.turn_id : undefined;
}
