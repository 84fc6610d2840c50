import type { NewSessionEvent, SessionEvent } from '../../store/index.ts';
import {
  HypothesisAnsweredPayloadSchema,
  HypothesisProposedPayloadSchema,
} from '../../domain/memory/memory-event-payloads.ts';
import { MEMORY_EVENT_TYPES } from '../../domain/memory/memory-event-types.ts';

export type HypothesisAnswer = 'accept' | 'dismiss';

export type HypothesisAnswerDecision =
  | { readonly ok: true; readonly event: NewSessionEvent }
  | {
      readonly ok: false;
      readonly problem: 'not_found' | 'already_answered';
      readonly reason: string;
    };

/**
 * The person's answer to a Psicólogo hypothesis, decided from the session's events: a proposed hypothesis
 * is accepted or dismissed once; a second answer is refused with the first one named. Pure.
 */
export function decideHypothesisAnswer(
  events: readonly SessionEvent[],
  hypothesisId: string,
  answer: HypothesisAnswer,
  actor = 'user',
): HypothesisAnswerDecision {
  const proposed = events.some(
    (event) =>
      event.type === MEMORY_EVENT_TYPES.hypothesisProposed &&
      HypothesisProposedPayloadSchema.safeParse(event.payload).data?.hypothesis_id === hypothesisId,
  );
  if (!proposed)
    return {
      ok: false,
      problem: 'not_found',
      reason: `No hypothesis with id ${hypothesisId} was proposed in this session.`,
    };
  const earlier = events.find(
    (event) =>
      (event.type === MEMORY_EVENT_TYPES.hypothesisAccepted ||
        event.type === MEMORY_EVENT_TYPES.hypothesisDismissed) &&
      HypothesisAnsweredPayloadSchema.safeParse(event.payload).data?.hypothesis_id === hypothesisId,
  );
  if (earlier !== undefined) {
    const status =
      earlier.type === MEMORY_EVENT_TYPES.hypothesisAccepted ? 'accepted' : 'dismissed';
    return {
      ok: false,
      problem: 'already_answered',
      reason: `Hypothesis ${hypothesisId} was already ${status} (event #${earlier.seq}); an answer is given once.`,
    };
  }
  const type =
    answer === 'accept'
      ? MEMORY_EVENT_TYPES.hypothesisAccepted
      : MEMORY_EVENT_TYPES.hypothesisDismissed;
  return { ok: true, event: { type, actor, payload: { v: 1, hypothesis_id: hypothesisId } } };
}
