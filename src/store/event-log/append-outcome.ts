import type { SessionEvent } from './session-event.ts';

/** The expected seq was stale: another append won. Nothing was written. */
export interface ExpectedSeqConflict {
  kind: 'expected_seq_conflict';
  sessionId: string;
  expectedSeq: number;
  actualSeq: number;
  message: string;
}

export interface SessionNotFound {
  kind: 'session_not_found';
  sessionId: string;
  message: string;
}

/** Appending is expected to fail sometimes (optimistic concurrency), so the failure is a value, not a throw. */
export type AppendOutcome =
  | { success: true; events: SessionEvent[]; lastSeq: number }
  | { success: false; error: ExpectedSeqConflict | SessionNotFound };

/** An append refused because another append won: callers match on this type, never on a message. */
export class AppendConflictError extends Error {
  override readonly name = 'AppendConflictError';
  readonly conflict: ExpectedSeqConflict;
  constructor(conflict: ExpectedSeqConflict) {
    super(conflict.message);
    this.conflict = conflict;
  }
}

/** Whether the append was refused for a stale expected seq (the caller decides again on a fresh view). */
export function isAppendConflict(
  outcome: AppendOutcome,
): outcome is { success: false; error: ExpectedSeqConflict } {
  return !outcome.success && outcome.error.kind === 'expected_seq_conflict';
}

/** The appended events; a stale expected seq throws `AppendConflictError`, a missing session an `Error`. */
export function appendedOrThrow(outcome: AppendOutcome): Extract<AppendOutcome, { success: true }> {
  if (outcome.success) return outcome;
  if (outcome.error.kind === 'expected_seq_conflict') throw new AppendConflictError(outcome.error);
  throw new Error(outcome.error.message);
}
