import type { Queryable } from '../database.ts';
import { toSessionEvent, type SessionEventRow } from './session-event-row.ts';
import type { SessionEvent } from './session-event.ts';

export interface ReadOptions {
  /** Events with a seq strictly greater than this; 0 reads from the start. */
  afterSeq?: number;
  limit?: number;
}

export const DEFAULT_READ_LIMIT = 1000;

/** Reads a session's events in seq order. */
export async function readEvents(
  database: Queryable,
  sessionId: string,
  options: ReadOptions = {},
): Promise<SessionEvent[]> {
  const result = await database.query<SessionEventRow>(
    `select id, session_id, seq, type, actor, payload, created_at
     from session_events where session_id = $1 and seq > $2 order by seq limit $3`,
    [sessionId, options.afterSeq ?? 0, options.limit ?? DEFAULT_READ_LIMIT],
  );
  return result.rows.map(toSessionEvent);
}
