import {
  decideHypothesisAnswer,
  MEMORY_EVENT_TYPES,
  type HypothesisAnswer,
} from '../memory/index.ts';
import type { SessionEvent } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { appendedOrStale, retryOnStaleView } from './expected-version.ts';
import { SESSION_LANE } from './session-queue.ts';

/**
 * `POST /api/hypotheses/:id/accept|dismiss`: the person's answer to a Psicólogo hypothesis, appended to the
 * session it was proposed in (`hypothesis.accepted` / `.dismissed`); a second answer is a 409 naming the first.
 */
export async function answerHypothesis(
  dependencies: ConversationDependencies,
  hypothesisId: string,
  answer: HypothesisAnswer,
  actor?: string,
): Promise<{ ok: true; event: SessionEvent } | Refusal> {
  const found = await dependencies.database.query<{ session_id: string }>(
    `select session_id from session_events where type = $1 and payload->>'hypothesis_id' = $2 limit 1`,
    [MEMORY_EVENT_TYPES.hypothesisProposed, hypothesisId],
  );
  const sessionId = found.rows[0]?.session_id;
  if (sessionId === undefined)
    return refusal(404, 'not_found', `No hypothesis with id ${hypothesisId}.`);
  return dependencies.queue.enqueue(sessionId, SESSION_LANE, () =>
    retryOnStaleView(dependencies, sessionId, 'the answer to the hypothesis', async (view) => {
      const decision = decideHypothesisAnswer(view.events, hypothesisId, answer, actor);
      if (!decision.ok)
        return refusal(
          decision.problem === 'not_found' ? 404 : 409,
          decision.problem,
          decision.reason,
        );
      const appended = appendedOrStale(
        await dependencies.eventLog.append(sessionId, [decision.event], {
          expectedSeq: view.state.last_seq,
        }),
      );
      await dependencies.views.load(sessionId);
      return { ok: true as const, event: appended.events[0]! };
    }),
  );
}
