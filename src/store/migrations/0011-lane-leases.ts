import type { Migration } from './migration.ts';

/**
 * Leases of lanes across processes (ADR 0170). A lane (session × agent) is run by one
 * process at a time: the process holding its row of `forja_lane_leases` while `expires_at` is ahead, renewing it
 * while the lane runs. Each take raises `epoch`; the appends of a turn check, in their own transaction, that the
 * lease still names their owner and epoch (`forja_lane_fence`, which locks the row against a take meanwhile), so
 * a process that lost its lane cannot append to it. A released lease keeps its row (owner null) so the epoch
 * only grows. A process with work for a lane held elsewhere sets `wanted` (while it is held: else it takes the
 * lane itself), and the holder, releasing it, looks at the lane again. The append function itself is not changed.
 */
export const laneLeases: Migration = {
  version: 11,
  name: 'lane-leases',
  sql: `
    create table forja_lane_leases (
      session_id uuid not null,
      lane text not null,
      owner uuid,
      epoch bigint not null,
      expires_at timestamptz not null,
      -- Another process had work for the lane while it was held: the holder looks at the lane again after.
      wanted boolean not null default false,
      primary key (session_id, lane)
    );
    create index forja_lane_leases_by_owner on forja_lane_leases (owner) where owner is not null;

    -- A lane is free when nobody holds it, its lease ran out, or its owner's process row is gone (a clean stop,
    -- or a process the heartbeat sweep found dead). Returns the new epoch, or null when another owner holds it.
    create function forja_take_lane(p_session_id uuid, p_lane text, p_owner uuid, p_seconds double precision)
    returns bigint language sql as $$
      insert into forja_lane_leases as l (session_id, lane, owner, epoch, expires_at)
        values (p_session_id, p_lane, p_owner, 1, now() + make_interval(secs => p_seconds))
      on conflict (session_id, lane) do update
        set owner = p_owner, epoch = l.epoch + 1, wanted = false, expires_at = now() + make_interval(secs => p_seconds)
        where l.owner is null or l.expires_at < now()
           or not exists (select 1 from forja_processes p where p.id = l.owner)
      returning epoch
    $$;

    -- Extends every lease the owner still holds; the rows returned are those it holds.
    create function forja_renew_lanes(p_owner uuid, p_seconds double precision)
    returns table (session_id uuid, lane text, epoch bigint) language sql as $$
      update forja_lane_leases l set expires_at = now() + make_interval(secs => p_seconds)
        where l.owner = p_owner
      returning l.session_id, l.lane, l.epoch
    $$;

    -- Inside an append's transaction: whether the lease is still this owner's at this epoch. The row stays
    -- locked until that transaction ends, so a take waits for the append and then sees the new epoch's owner.
    create function forja_lane_fence(p_session_id uuid, p_lane text, p_owner uuid, p_epoch bigint)
    returns boolean language plpgsql as $$
    begin
      perform 1 from forja_lane_leases l
        where l.session_id = p_session_id and l.lane = p_lane and l.owner = p_owner and l.epoch = p_epoch
        for share;
      return found;
    end $$;
  `,
};
