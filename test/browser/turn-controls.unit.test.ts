import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canRegenerate, canRetry, rehydrate } from '../../src/domain/conversation/index.ts';
import { sessionLogArbitrary } from '../../src/domain/conversation/test-support/session-log-arbitrary.ts';
import type { StoredEvent } from '../../web/src/api/types.ts';
import { foldSession } from '../../web/src/session/fold/fold-session.ts';

function log(...events: Array<[type: string, payload: unknown, actor?: string]>): StoredEvent[] {
  return events.map(([type, payload, actor = 'system'], index) => ({
    id: `event-${index + 1}`,
    session_id: 'session',
    seq: index + 1,
    type,
    actor,
    payload,
    created_at: '2026-01-01T00:00:00Z',
  }));
}

const lane = { agent: 'criativo' };
const opening: Array<[string, unknown, string?]> = [
  ['agent.activated', { v: 1, agent: 'criativo', handoff_id: null }],
  ['chat.message', { v: 1, text: 'Hi', to: 'criativo' }, 'user'],
  ['turn.started', { v: 1, ...lane, turn_id: 't1', kind: 'message' }],
];
const said = (view: ReturnType<typeof foldSession>) =>
  view.chat.flatMap((item) => (item.kind === 'agent' ? [item.text] : []));

describe('turn controls in the session fold (ADR 0220)', () => {
  it('offers Regenerate on the last plain answer; the new answer supersedes the old in the chat', () => {
    const answered = log(...opening, [
      'agent.response',
      { v: 1, ...lane, turn_id: 't1', text: 'Old' },
    ]);
    expect(foldSession(answered).controls).toEqual({ retry: [], regenerate: ['t1'] });
    const regenerated = foldSession(
      log(
        ...opening,
        ['agent.response', { v: 1, ...lane, turn_id: 't1', text: 'Old' }],
        ['answer.superseded', { v: 1, ...lane, turn_id: 't1', event_id: 'event-4', by: 'user' }],
        ['turn.started', { v: 1, ...lane, turn_id: 't2', kind: 'message', regenerates: 't1' }],
      ),
    );
    expect(said(regenerated)).toEqual([]);
    expect(regenerated.controls).toEqual({ retry: [], regenerate: [] });
    expect(regenerated.openTurns.map((turn) => turn.turnId)).toEqual(['t2']);
  });

  it('offers Retry on a failed last turn, not while it runs again', () => {
    const failed = [
      ...opening,
      ['turn.failed', { v: 1, ...lane, turn_id: 't1', reason: 'provider_error' }],
    ] as Array<[string, unknown, string?]>;
    expect(foldSession(log(...failed)).controls).toEqual({ retry: ['t1'], regenerate: [] });
    const retried = foldSession(
      log(...failed, ['turn.retried', { v: 1, ...lane, turn_id: 't1', by: 'user' }]),
    );
    expect(retried.controls.retry).toEqual([]);
    expect(retried.openTurns.map((turn) => turn.turnId)).toEqual(['t1']);
  });

  it('shows a stopped turn with its partial text, marked, and a stop with no text as a note', () => {
    const stopped = foldSession(
      log(...opening, [
        'turn.stopped',
        { v: 1, ...lane, turn_id: 't1', text: 'Half an', by: 'user' },
      ]),
    );
    expect(stopped.chat.at(-1)).toMatchObject({ kind: 'agent', text: 'Half an', stopped: true });
    expect(stopped.openTurns).toEqual([]);
    expect(stopped.controls.regenerate).toEqual(['t1']);
    const silent = foldSession(
      log(...opening, ['turn.stopped', { v: 1, ...lane, turn_id: 't1', text: '', by: 'user' }]),
    );
    expect(silent.chat.at(-1)).toMatchObject({ kind: 'stopped', agent: 'criativo' });
    expect(silent.controls).toEqual({ retry: [], regenerate: [] });
  });

  it('offers no Retry on a failed consolidation: readiness runs it again', () => {
    const view = foldSession(
      log(
        ['agent.activated', { v: 1, agent: 'criativo', handoff_id: null }],
        ['turn.started', { v: 1, ...lane, turn_id: 't1', kind: 'consolidation' }],
        ['turn.failed', { v: 1, ...lane, turn_id: 't1', reason: 'invalid_brief' }],
      ),
    );
    expect(view.controls).toEqual({ retry: [], regenerate: [] });
  });
});

describe('Retry and Regenerate: the page offers exactly what the server accepts', () => {
  it('agrees with canRetry and canRegenerate on every lane end of any log', () => {
    fc.assert(
      fc.property(sessionLogArbitrary, (events) => {
        // A turn id is a fresh uuid of one agent's turn in a real log (a retry keeps it, in the same lane);
        // the generator draws them from a small pool shared by the agents, so it may give one to two agents.
        fc.pre(oneAgentPerTurnId(events));
        const state = rehydrate(events);
        const { controls } = foldSession(events);
        const accepted = (check: typeof canRetry) =>
          state.lane_ends
            .filter((end) => check(state, end.turn_id).ok)
            .map((end) => end.turn_id)
            .sort();
        expect([...controls.retry].sort()).toEqual(accepted(canRetry));
        expect([...controls.regenerate].sort()).toEqual(accepted(canRegenerate));
      }),
      { numRuns: 500 },
    );
  });
});

function oneAgentPerTurnId(events: readonly StoredEvent[]): boolean {
  const agentOf = new Map<string, string>();
  for (const event of events) {
    if (event.type !== 'turn.started') continue;
    const { agent, turn_id: turnId } = event.payload as { agent?: unknown; turn_id?: unknown };
    if (typeof agent !== 'string' || typeof turnId !== 'string') continue;
    if ((agentOf.get(turnId) ?? agent) !== agent) return false;
    agentOf.set(turnId, agent);
  }
  return true;
}
