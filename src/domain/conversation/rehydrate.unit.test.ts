import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSessionEvents, eventIdForSeq } from './test-support/build-session-events.ts';
import { sessionLogArbitrary } from './test-support/session-log-arbitrary.ts';
import { initialState } from './conversation-state.ts';
import { evolve } from './evolve.ts';
import { foldEvents, rehydrate } from './rehydrate.ts';

const given = (specs: Parameters<typeof buildSessionEvents>[1]) =>
  rehydrate(buildSessionEvents('session-1', specs));
const started = (turn_id: string) => ({
  type: 'turn.started',
  payload: { v: 1, agent: 'criativo', turn_id, kind: 'message' },
});

describe('rehydrate', () => {
  it('gives the model the chat: person as user, agents as assistant, tool calls with their results', () => {
    const state = given([
      { type: 'chat.message', actor: 'user', payload: { v: 1, text: 'Hi' } },
      {
        type: 'tool.completed',
        payload: {
          v: 1,
          agent: 'criativo',
          tool_call_id: 'c1',
          tool: 'emit_artifact',
          args: {},
          ok: false,
          result: 'origin: empty',
        },
      },
      { type: 'agent.response', payload: { v: 1, agent: 'criativo', text: 'Hello' } },
    ]);
    expect(state.history.map((entry) => [entry.role, entry.content])).toEqual([
      ['user', 'Hi'],
      ['tool', 'origin: empty'],
      ['assistant', 'Hello'],
    ]);
  });

  it.each([
    ['a started turn with nothing after it', [started('t1')], 't1'],
    [
      'a turn answered by agent.response',
      [
        started('t1'),
        { type: 'agent.response', payload: { v: 1, agent: 'criativo', text: 'ok', turn_id: 't1' } },
      ],
      null,
    ],
    [
      'a turn closed by turn.failed',
      [
        started('t1'),
        { type: 'turn.failed', payload: { v: 1, turn_id: 't1', reason: 'provider down' } },
      ],
      null,
    ],
    [
      'a turn.failed of another turn',
      [started('t1'), { type: 'turn.failed', payload: { v: 1, turn_id: 't0', reason: 'late' } }],
      't1',
    ],
  ])('sees %s', (_case, specs, turnInProgress) => {
    expect(given(specs).turns_in_progress[0]?.turn_id ?? null).toBe(turnInProgress);
  });

  it('keeps proposed actions pending until denied or, once approved, until their run is recorded', () => {
    const proposed = (action_id: string) => ({
      type: 'action.proposed',
      payload: { v: 1, action_id, agent: 'po', tool: 'run', args: {} },
    });
    const state = given([
      proposed('a1'),
      proposed('a2'),
      proposed('a3'),
      { type: 'action.approved', payload: { v: 1, action_id: 'a1' } },
      { type: 'action.denied', payload: { v: 1, action_id: 'a3' } },
    ]);
    expect(state.pending_actions.map((action) => [action.action_id, action.status])).toEqual([
      ['a1', 'approved'],
      ['a2', 'proposed'],
    ]);
  });

  it('keeps each handoff at its latest status and the latest product brief as current', () => {
    const handoff = (status: string) => ({
      type: `handoff.${status}`,
      payload: {
        v: 1,
        handoff_id: 'h1',
        from_agent: 'criativo',
        to_agent: 'po',
        artifact_id: null,
        status,
      },
    });
    const brief = (title: string) => ({
      type: 'artifact.product_brief',
      payload: { v: 1, data: { title, summary: 's', problem: 'p', audience: 'a', goals: ['g'] } },
    });
    const state = given([handoff('offered'), brief('First'), handoff('accepted'), brief('Second')]);
    expect(state.handoffs).toEqual([
      {
        id: 'h1',
        session_id: 'session-1',
        from_agent: 'criativo',
        to_agent: 'po',
        artifact_id: null,
        status: 'accepted',
      },
    ]);
    expect(state.product_brief).toMatchObject({
      event_id: eventIdForSeq(4),
      seq: 4,
      data: { title: 'Second' },
    });
  });

  it('reports unreadable and too-new payloads as skipped instead of dropping them silently', () => {
    const state = given([
      { type: 'chat.message', payload: { v: 1 } },
      { type: 'agent.response', payload: { v: 2, agent: 'criativo', text: 'from the future' } },
      {
        type: 'artifact.business_rule',
        payload: { v: 1, data: { title: '', statement: 's' }, origin: [1] },
      },
      { type: 'token.usage', payload: 'not read by the conversation' },
    ]);
    expect(state.skipped).toEqual([
      { seq: 1, type: 'chat.message', reason: 'chat.message v1 cannot be read at payload.text' },
      { seq: 2, type: 'agent.response', reason: 'payload version 2 is newer than this reader (1)' },
      {
        seq: 3,
        type: 'artifact.business_rule',
        reason: 'artifact.business_rule v1 cannot be read at payload.data.title',
      },
    ]);
    expect(state.history).toEqual([]);
    expect(state.artifacts).toEqual([]);
    expect(state.last_seq).toBe(4);
  });

  it('throws on events out of order or from another session: a fold over one log in order only', () => {
    const [first, second] = buildSessionEvents('session-1', [
      { type: 'chat.message' },
      { type: 'chat.message' },
    ]);
    if (first === undefined || second === undefined) throw new Error('two events expected');
    expect(() => rehydrate([second, first])).toThrow('event_order: event seq 1 folded after seq 2');
    expect(() => evolve(rehydrate([first]), { ...second, session_id: 'session-2' })).toThrow(
      'event_session',
    );
  });
});

describe('rehydrate properties', () => {
  it('is a fold: rehydrate(a ++ b) equals folding b into rehydrate(a)', () => {
    fc.assert(
      fc.property(sessionLogArbitrary, fc.nat(), (log, cut) => {
        const split = log.length === 0 ? 0 : cut % (log.length + 1);
        const [head, tail] = [log.slice(0, split), log.slice(split)];
        expect(foldEvents(rehydrate(head), tail)).toEqual(rehydrate(log));
      }),
    );
  });

  it('never holds a turn and a later answer to it at once, and never a denied action, and approved ones marked so', () => {
    fc.assert(
      fc.property(sessionLogArbitrary, (log) => {
        const state = rehydrate(log);
        for (const turn of state.turns_in_progress) {
          const closed = log.some(
            (event) =>
              event.seq > turn.seq &&
              typeof event.payload === 'object' &&
              event.payload !== null &&
              (event.payload as { turn_id?: unknown }).turn_id === turn.turn_id &&
              // A final answer closes only its own agent's lane; a failure names the turn.
              (event.type === 'turn.failed' ||
                (event.type === 'agent.response' &&
                  (event.payload as { agent?: unknown }).agent === turn.agent)),
          );
          expect(closed).toBe(false);
        }
        for (const action of state.pending_actions) {
          const answeredWith = (type: string) =>
            log.some(
              (event) =>
                event.seq > action.seq &&
                event.type === type &&
                (event.payload as { action_id?: unknown }).action_id === action.action_id,
            );
          expect(answeredWith('action.denied')).toBe(false);
          expect(answeredWith('action.approved')).toBe(action.status === 'approved');
        }
      }),
    );
  });

  it('equals evolving event by event, and evolve never changes the state it is given', () => {
    fc.assert(
      fc.property(sessionLogArbitrary, (log) => {
        let state = initialState();
        for (const event of log) {
          const snapshot = structuredClone(state);
          const next = evolve(state, event);
          expect(state).toEqual(snapshot);
          state = next;
        }
        expect(state).toEqual(rehydrate(log));
      }),
    );
  });

  it('starts from the initial state', () => {
    expect(rehydrate([])).toEqual(initialState());
  });
});
