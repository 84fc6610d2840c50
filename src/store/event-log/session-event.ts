/** An event as stored in the session log. `seq` is 1, 2, 3 … per session, with no gap and no duplicate. */
export interface SessionEvent {
  id: string;
  session_id: string;
  seq: number;
  type: string;
  actor: string;
  payload: unknown;
  created_at: string;
}

/** An outbox row to write in the same transaction as the event it belongs to. */
export interface OutboxMessage {
  aggregateType: string;
  aggregateId: string;
  payload?: unknown;
}

/** An event to append. `id` is generated when absent; `outbox` rows are written atomically with it. */
export interface NewSessionEvent {
  id?: string;
  type: string;
  actor: string;
  payload: unknown;
  outbox?: OutboxMessage[];
}
