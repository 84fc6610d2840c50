import type { SessionEvent } from './session-event.ts';

/** A `session_events` row as both database drivers return it. */
export interface SessionEventRow {
  id: string;
  session_id: string;
  seq: number;
  type: string;
  actor: string;
  payload: unknown;
  created_at: Date | string;
}

export function toSessionEvent(row: SessionEventRow): SessionEvent {
  return {
    id: row.id,
    session_id: row.session_id,
    seq: Number(row.seq),
    type: row.type,
    actor: row.actor,
    payload: row.payload,
    created_at:
      row.created_at instanceof Date
        ? row.created_at.toISOString()
        : new Date(row.created_at).toISOString(),
  };
}
