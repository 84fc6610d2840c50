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
