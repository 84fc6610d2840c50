import { StoredArtifactPayloadSchema, artifactTypeOf } from '../artifacts/artifact-payload.ts';
import { DECISION_TYPE, DecisionSchema, type Decision } from '../artifacts/decision.ts';
import { handoffFromEvent } from '../handoffs/handoff-event.ts';
import type { SessionEvent } from './session-event.ts';

/** A decision an agent made by itself, as the handoff the person accepts next lists it. */
export type HandoffDecision = Pick<Decision, 'question' | 'answer' | 'reason'> & {
  readonly seq: number;
  readonly decided_by: string;
};

/**
 * The decisions each handoff carries, by handoff id: every decision an agent made by itself (not the person's)
 * goes on the first handoff that agent offers after it, so accepting that handoff is accepting them. Pure, from
 * the log alone (the page folds the same rule from the stream).
 */
export function decisionsByHandoff(
  events: readonly SessionEvent[],
): ReadonlyMap<string, readonly HandoffDecision[]> {
  const unlisted = new Map<string, HandoffDecision[]>();
  const byHandoff = new Map<string, HandoffDecision[]>();
  for (const event of events) {
    if (artifactTypeOf(event.type) === DECISION_TYPE) {
      const decision = agentDecision(event);
      if (decision === null) continue;
      unlisted.set(decision.decided_by, [...(unlisted.get(decision.decided_by) ?? []), decision]);
      continue;
    }
    const handoff = handoffFromEvent(event);
    if (handoff === null || handoff.status !== 'offered') continue;
    const listed = unlisted.get(handoff.from_agent) ?? [];
    byHandoff.set(handoff.id, listed);
    unlisted.delete(handoff.from_agent);
  }
  return byHandoff;
}

function agentDecision(event: SessionEvent): HandoffDecision | null {
  const payload = StoredArtifactPayloadSchema.safeParse(event.payload);
  if (!payload.success) return null;
  const decision = DecisionSchema.safeParse(payload.data.data);
  if (!decision.success || decision.data.decided_by === 'person') return null;
  const { question, answer, reason, decided_by } = decision.data;
  return { seq: event.seq, question, answer, reason, decided_by };
}
