import type { SessionEvent } from '../session-event.ts';

/** What a test or a fixture states about an event; the rest is filled in deterministically. */
export type EventSpec = {
  readonly type: string;
  readonly actor?: string;
  readonly payload?: unknown;
};

/**
 * Test support: turns specs into a session's stored events with seqs `firstSeq, firstSeq + 1, …`, ids
 * derived from the seq and timestamps one second apart — deterministic, so given/when/then tests and
 * property tests need no clock and no id generator.
 */
export function buildSessionEvents(
  sessionId: string,
  specs: readonly EventSpec[],
  firstSeq = 1,
): SessionEvent[] {
  return specs.map((spec, index) => {
    const seq = firstSeq + index;
    return {
      id: eventIdForSeq(seq),
      session_id: sessionId,
      seq,
      type: spec.type,
      actor: spec.actor ?? 'system',
      payload: spec.payload ?? { v: 1 },
      created_at: new Date(Date.UTC(2026, 0, 1) + seq * 1000).toISOString(),
    };
  });
}

/** The id `buildSessionEvents` gives the event with this seq (a valid v4-shaped uuid). */
export function eventIdForSeq(seq: number): string {
  return `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`;
}
