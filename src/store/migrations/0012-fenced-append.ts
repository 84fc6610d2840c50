import type { Migration } from './migration.ts';

/**
 * A lane's appends fenced in the append's own statement (ADR 0205). `forja_append_fenced_events` checks the lane's
 * lease row still names the appending process at its epoch (`forja_lane_fence`, which locks the row `for share`
 * until the commit, so a take waits and then sees the new owner), then appends exactly as the five-argument
 * `forja_append_events` does — notifying or not as `p_notify` says. A lease that is no longer held raises SQLSTATE
 * FJ001 and nothing is written. One statement: a fenced append commits by itself, joins the per-session queue and
 * is notified after its commit like any other append (ADR 0180), instead of a transaction of its own.
 */
export const fencedAppend: Migration = {
  version: 12,
  name: 'fenced-append',
  sql: `
    create function forja_append_fenced_events(p_session_id uuid, p_expected_seq integer, p_events jsonb,
                                               p_outbox jsonb, p_notify boolean, p_lane text, p_owner uuid,
                                               p_epoch bigint)
    returns setof session_events language plpgsql as $$
    begin
      if not forja_lane_fence(p_session_id, p_lane, p_owner, p_epoch) then
        raise exception 'lane % of session % is not held by % at epoch %', p_lane, p_session_id, p_owner, p_epoch
          using errcode = 'FJ001';
      end if;
      return query select * from forja_append_events(p_session_id, p_expected_seq, p_events, p_outbox, p_notify);
    end $$;
  `,
};
