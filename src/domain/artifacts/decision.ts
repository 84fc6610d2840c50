import { z } from 'zod';
import { AGENT_SLUG_PATTERN } from '../handoffs/handoff.ts';
import type { ArtifactDefinition } from './artifact-definition.ts';
import { requiredText } from './artifact-text.ts';

/** Wire name of the decision artifact (`artifact.decision`). */
export const DECISION_TYPE = 'decision';

/** Who decided: the person, or the agent that decided by itself (its slug). */
export const DecidedBySchema = z.union([
  z.literal('person'),
  z.string().regex(AGENT_SLUG_PATTERN, 'must be "person" or an agent slug'),
]);

/**
 * An open question closed: `{question, answer, decided_by, reason}`. No question of the brief is decided in
 * silence: it is answered by the person or recorded as an agent's decision, which the person sees on the next
 * handoff they accept. `question_id` names the `ask_person` question it closes, when there was one.
 */
export const DecisionSchema = z.strictObject({
  question: requiredText(2000),
  answer: requiredText(4000),
  decided_by: DecidedBySchema,
  reason: requiredText(2000),
  question_id: z.string().min(1).max(64).optional(),
});

export type Decision = z.infer<typeof DecisionSchema>;

/** System-only: written by `record_decision`, which sets `decided_by` from the log, never from the model. */
export const decisionDefinition: ArtifactDefinition = {
  type: DECISION_TYPE,
  schema: DecisionSchema,
  systemOnly: true,
  systemOnlyReason:
    'a decision is recorded with record_decision, which says who decided from the log',
  versioned: false,
};
