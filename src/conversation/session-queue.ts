import { createKeyedQueue } from '../lib/keyed-queue.ts';

/**
 * Serialises work per lane inside this process: a lane is one agent of one session, so turns of one agent run
 * one after another (record ADR 0008) while lanes of different agents — and different sessions — run side by side.
 * Session-wide operations (readiness, handoff transitions, activations, approvals' records) take the
 * `SESSION_LANE` of their session: they are serialised among themselves, and each appends with an expected
 * version, so a lane appending in between makes it decide again rather than act on a stale view.
 */
export interface SessionQueue {
  enqueue<T>(sessionId: string, lane: string, work: () => Promise<T>): Promise<T>;
  /** Whether the lane has work of this process running or queued now. */
  busy(sessionId: string, lane: string): boolean;
  /** Resolves when the session has no work left in any lane, including work queued while waiting. */
  idle(sessionId: string): Promise<void>;
  /** Resolves when every session's queued work has finished. */
  drain(): Promise<void>;
}

/** The lane of session-wide operations; not an agent slug (slugs start with a letter). */
export const SESSION_LANE = '#session';

export function createSessionQueue(): SessionQueue {
  const queue = createKeyedQueue();
  return {
    enqueue: (sessionId, lane, work) => queue.run(`${sessionId}\u0000${lane}`, work),
    busy: (sessionId, lane) => queue.busy(`${sessionId}\u0000${lane}`),
    idle: (sessionId) => queue.idle((key) => key.startsWith(`${sessionId}\u0000`)),
    drain: () => queue.idle(),
  };
}
