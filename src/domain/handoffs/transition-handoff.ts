import type { NewSessionEvent } from '../conversation/session-event.ts';
import type { Handoff, HandoffStatus } from './handoff.ts';
import { handoffEvent } from './handoff-event.ts';

/** Most characters kept from a person's reason for rejecting. */
export const MAX_REJECTION_REASON_CHARACTERS = 1000;

/**
 * A request to move a handoff on; `actor` is who asks (`user`, or an agent slug for `complete`). A rejection
 * carries the person's reason, which its sender is given (ADR 0160).
 */
export type HandoffCommand =
  | { readonly type: 'accept'; readonly actor: string }
  | { readonly type: 'reject'; readonly actor: string; readonly reason: string }
  | { readonly type: 'complete'; readonly actor: string };

export type HandoffTransition =
  | { readonly ok: true; readonly handoff: Handoff; readonly event: NewSessionEvent }
  | { readonly ok: false; readonly reason: string };

/** The whole state machine: each command leaves exactly one status for exactly one other. */
const TRANSITIONS: Readonly<
  Record<HandoffCommand['type'], { from: HandoffStatus; to: HandoffStatus }>
> = {
  accept: { from: 'offered', to: 'accepted' },
  reject: { from: 'offered', to: 'rejected' },
  complete: { from: 'accepted', to: 'completed' },
};

/**
 * Applies `command` to `handoff`: the handoff after the transition and the `handoff.<status>` event to
 * append in the same transaction, or the reason the transition is invalid (HTTP 409 at the edge).
 */
export function transitionHandoff(handoff: Handoff, command: HandoffCommand): HandoffTransition {
  const { from, to } = TRANSITIONS[command.type];
  if (handoff.status !== from) {
    const already = handoff.status === to ? 'already ' : '';
    return {
      ok: false,
      reason: `handoff ${handoff.id} is ${already}${handoff.status}; only an ${from} handoff can be ${to}`,
    };
  }
  // A rejection goes back to its sender with the reason (ADR 0160): without one the sender has nothing to act on.
  const reason = command.type === 'reject' ? command.reason.trim() : undefined;
  if (reason === '') return { ok: false, reason: 'reason: must not be empty' };
  if (reason !== undefined && reason.length > MAX_REJECTION_REASON_CHARACTERS) {
    return {
      ok: false,
      reason: `reason: must be at most ${MAX_REJECTION_REASON_CHARACTERS} characters`,
    };
  }
  const moved: Handoff = { ...handoff, status: to };
  const event = handoffEvent(moved, command.actor, reason);
  return { ok: true, handoff: moved, event };
}
