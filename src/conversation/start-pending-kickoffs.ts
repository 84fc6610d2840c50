import { decide } from '../domain/conversation/index.ts';
import { findSession } from '../store/index.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';
import { pendingKickoffs } from './pending-kickoffs.ts';
import { continueTurn, type TurnResult } from './run-agent-turn.ts';

/** What became of each kickoff this call tried. */
export type KickoffResult = { agent: string } & TurnResult;

/**
 * Runs the kickoff turn of every agent activated by a handoff that has not had a turn yet, one after
 * another in the session's queue (a `message` turn whose task state is the agent's kickoff). Stops at the
 * first that cannot start or that pauses for an approval: turns of a session run one at a time, and the
 * rest are found again by the next call (after an accepted handoff, after an answered action, or through
 * `POST /api/sessions/:id/kickoffs`). Enqueued at once, so `idle(sessionId)` waits for it.
 */
export function startPendingKickoffs(dependencies: ConversationDependencies, sessionId: string): Promise<KickoffResult[]> {
  const done = dependencies.queue.enqueue(sessionId, async (): Promise<KickoffResult[]> => {
    const session = await findSession(dependencies.database, sessionId);
    if (session === null) return [];
    const results: KickoffResult[] = [];
    for (;;) {
      const view = await dependencies.views.load(sessionId);
      const agent = pendingKickoffs(view.state, view.events, (slug) => dependencies.catalog.get(slug) !== null)[0];
      if (agent === undefined) return results;
      const decision = decide({ type: 'StartTurn', agent, turn_id: dependencies.newId(), kind: 'message' }, view.state);
      if (!decision.ok) return [...results, { agent, status: 'not_started' as const, reason: decision.reason }];
      const appended = await dependencies.eventLog.append(sessionId, decision.events, { expectedSeq: view.state.last_seq });
      if (!appended.success) return [...results, { agent, status: 'not_started' as const, reason: appended.error.message }];
      const result = await continueTurn(dependencies, sessionId, session.project_id, agent);
      results.push({ agent, ...result });
      if (result.status === 'paused') return results;
    }
  });
  done.catch((error: unknown) => dependencies.logger.error({ err: error, session_id: sessionId }, 'kickoff crashed'));
  return done;
}
