import type { SessionView } from './session-view.ts';

/**
 * Whether "I'm ready to produce" is offered: no brief yet, or every handoff of the current brief to the PO
 * was rejected — the server's rule (ADR 0160), so the button is back exactly when pressing it can work.
 */
export function readinessOpen(view: Pick<SessionView, 'brief' | 'handoffs'>): boolean {
  const { brief } = view;
  if (brief === null) return true;
  const ofBrief = Object.values(view.handoffs).filter(
    (handoff) =>
      handoff.from === 'criativo' && handoff.to === 'po' && handoff.artifactId === brief.eventId,
  );
  return ofBrief.length > 0 && ofBrief.every((handoff) => handoff.status === 'rejected');
}
