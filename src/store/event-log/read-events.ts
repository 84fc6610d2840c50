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

/** A page of a session's events bounded in bytes as well as in number (ADR 0307). */
export interface EventPage {
  events: SessionEvent[];
  /** The payloads' size as JSON text, in bytes, summed over the page. */
  bytes: number;
  /** Whether events after the page may remain (it stopped at a bound, not at the end of the log). */
  more: boolean;
}

/**
 * Reads, after `afterSeq`, at most `limit` events and no more than `maxBytes` of payload (as JSON text) — but
 * always the first one, whatever its size: a reader that holds one page at a time holds at most `maxBytes`
 * plus one event. The sizes are summed in the database over the seqs alone, so neither side holds more than
 * the page itself.
 */
export async function readEventPage(
  database: Queryable,
  sessionId: string,
  options: { afterSeq: number; limit: number; maxBytes: number },
): Promise<EventPage> {
  const result = await database.query<SessionEventRow & { size: number }>(
    `with sized as (
       select seq, octet_length(payload::text) as size
       from session_events where session_id = $1 and seq > $2 order by seq limit $3
     ), page as (
       select seq, size, sum(size) over (order by seq) - size as before from sized
     )
     select e.id, e.session_id, e.seq, e.type, e.actor, e.payload, e.created_at, page.size
     from page join session_events e on e.session_id = $1 and e.seq = page.seq
     where page.before < $4 order by e.seq`,
    [sessionId, options.afterSeq, options.limit, options.maxBytes],
  );
  const bytes = result.rows.reduce((sum, row) => sum + Number(row.size), 0);
  return {
    events: result.rows.map(toSessionEvent),
    bytes,
    more: result.rows.length === options.limit || bytes >= options.maxBytes,
  };
}
