import {
  decideHypothesisAnswer,
  MEMORY_EVENT_TYPES,
  type HypothesisAnswer,
} from '../memory/index.ts';
import type { SessionEvent } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { handleCommand } from './session-command.ts';

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
  const handled = await handleCommand(dependencies, sessionId, {
    what: 'the answer to the hypothesis',
    decide: (view) => {
      const decision = decideHypothesisAnswer(view.events, hypothesisId, answer, actor);
      if (!decision.ok)
        return refusal(
          decision.problem === 'not_found' ? 404 : 409,
          decision.problem,
          decision.reason,
        );
      return { ok: true, events: [decision.event], value: undefined };
    },
  });
  if (!handled.ok) return handled;
  await dependencies.views.load(sessionId);
  return { ok: true, event: handled.events[0]! };
}
