import type { Queryable } from '../database.ts';

/** Processed outbox rows are kept this long by default (for `forja status` and for looking into a failure). */
export const DEFAULT_OUTBOX_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Deletes outbox rows processed more than `olderThanMs` ago; returns how many. The outbox is a delivery
 * queue, not the log: a processed row has done its work, and the event it carried stays in `session_events`
 * (projections are rebuilt from the log, never from the outbox). Pending rows are never touched.
 */
export async function pruneOutbox(database: Queryable, olderThanMs: number): Promise<number> {
  const result = await database.query<{ pruned: number }>(
    `with pruned as (
       delete from outbox where processed_at is not null and processed_at < now() - make_interval(secs => $1::double precision / 1000) returning 1
     ) select count(*)::int as pruned from pruned`,
    [olderThanMs],
  );
  return result.rows[0]?.pruned ?? 0;
}
