import { decide, PERSON_ACTOR } from '../domain/conversation/index.ts';
import { findSession, type SessionEvent } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { appendedOrStale, retryOnStaleView } from './expected-version.ts';
import { SESSION_LANE } from './session-queue.ts';

/**
 * `POST /api/sessions/:id/agents/:slug/start`: the activation rule (an accepted handoff addressed to the
 * agent, or a user-started agent) decides before anything runs; a refusal is a 409 with the reason.
 */
export async function startAgent(
  dependencies: ConversationDependencies,
  sessionId: string,
  agent: string,
  actor = PERSON_ACTOR,
): Promise<{ ok: true; event: SessionEvent } | Refusal> {
  if ((await findSession(dependencies.database, sessionId)) === null)
    return refusal(404, 'not_found', `No session with id ${sessionId}.`);
  return dependencies.queue.enqueue(sessionId, SESSION_LANE, () =>
    retryOnStaleView(dependencies, sessionId, `activating ${agent}`, async (view) => {
      const decision = decide({ type: 'ActivateAgent', agent, actor }, view.state);
      if (!decision.ok) return refusal(409, 'activation_refused', decision.reason);
      const appended = appendedOrStale(
        await dependencies.eventLog.append(sessionId, decision.events, {
          expectedSeq: view.state.last_seq,
        }),
      );
      return { ok: true as const, event: appended.events[0]! };
    }),
  );
}
