/** A row of the transactional outbox, as a handler sees it. */
export interface OutboxRow {
  id: number;
  aggregate_type: string;
  aggregate_id: string;
  event_id: string | null;
  payload: unknown;
  attempts: number;
  created_at: string;
}

/**
 * What a handler says about one row. `processed`: mark it done. `stop_cycle`: leave this row unprocessed and
 * attempt nothing else in this batch (the downstream is unavailable; the next cycle retries). A handler that
 * throws fails only its row: attempts and last_error are recorded and the row is retried after a backoff.
 */
export type OutboxHandlerResult =
  | { outcome: 'processed' }
  | { outcome: 'stop_cycle'; reason: string };
