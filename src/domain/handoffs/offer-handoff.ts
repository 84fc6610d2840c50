import type { NewSessionEvent } from '../conversation/session-event.ts';
import { AGENT_SLUG_PATTERN, type Handoff } from './handoff.ts';
import { handoffEvent } from './handoff-event.ts';

/** What a new handoff needs; `id` comes from the caller so the rule needs no id generator. */
export type HandoffOffer = {
  readonly id: string;
  readonly session_id: string;
  readonly from_agent: string;
  readonly to_agent: string;
  readonly artifact_id: string | null;
  /** Who offers; usually `from_agent` itself or `system` (the readiness use case). */
  readonly actor: string;
};

export type HandoffOffered =
  | { readonly ok: true; readonly handoff: Handoff; readonly event: NewSessionEvent }
  | { readonly ok: false; readonly reason: string };

/** Creates a handoff in status `offered` and its `handoff.offered` event. */
export function offerHandoff(offer: HandoffOffer): HandoffOffered {
  const problems: string[] = [];
  if (offer.id.trim() === '') problems.push('id: must not be empty');
  if (offer.session_id.trim() === '') problems.push('session_id: must not be empty');
  for (const field of ['from_agent', 'to_agent'] as const) {
    if (!AGENT_SLUG_PATTERN.test(offer[field])) {
      problems.push(
        `${field}: "${offer[field]}" must be an agent slug (${AGENT_SLUG_PATTERN.source})`,
      );
    }
  }
  if (offer.from_agent === offer.to_agent)
    problems.push(`to_agent: an agent cannot hand off to itself (${offer.to_agent})`);
  if (offer.artifact_id !== null && offer.artifact_id.trim() === '')
    problems.push('artifact_id: must be null or an event id');
  if (problems.length > 0) return { ok: false, reason: problems.join('; ') };

  const { actor, ...fields } = offer;
  const handoff: Handoff = { ...fields, status: 'offered' };
  return { ok: true, handoff, event: handoffEvent(handoff, actor) };
}
