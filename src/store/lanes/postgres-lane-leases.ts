import type { Database } from '../database.ts';
import {
  currentLease,
  LaneHeldElsewhereError,
  laneContext,
  laneKey,
  type LaneLease,
  type LaneLeases,
} from './lane-leases.ts';

export interface PostgresLaneLeasesOptions {
  /** This process's `forja_processes` row: a lease whose owner has no row is free. */
  owner: string;
  /** How long a lease lasts without renewal (FORJA_LANE_LEASE_SECONDS); renewed every third of it. */
  leaseMs: number;
  /** A renewal found a lane taken by another process (this one stalled past the lease). */
  onLost?: (lease: LaneLease) => void;
  onError?: (error: unknown) => void;
}

/**
 * Leases in `forja_lane_leases` (migration 0011), shared by every process on the server. `hold` takes the row
 * (free, expired, or its owner's process gone) with a new epoch, renews every lease this process holds every
 * third of the lease length, and releases the row when the work ends. A process that dies stops renewing: its
 * lanes are free when their lease runs out, and `orphaned` lists them for a live process to take over.
 */
export function createPostgresLaneLeases(
  database: Database,
  settings: PostgresLaneLeasesOptions,
): LaneLeases {
  const { owner } = settings;
  const seconds = settings.leaseMs / 1000;
  const held = new Map<string, LaneLease>();
  let renewing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;

  const renew = async () => {
    if (held.size === 0) return;
    const still = await database.query<{ session_id: string; lane: string; epoch: number }>(
      'select session_id, lane, epoch from forja_renew_lanes($1, $2)',
      [owner, seconds],
    );
    const kept = new Set(
      still.rows.map((row) => `${laneKey(row.session_id, row.lane)}\u0000${Number(row.epoch)}`),
    );
    for (const [key, lease] of held)
      if (!lease.lost && !kept.has(`${key}\u0000${lease.epoch}`)) {
        lease.lost = true;
        settings.onLost?.(lease);
      }
  };
  const startRenewing = () => {
    if (timer !== null) return;
    timer = setInterval(
      () => {
        renewing = renewing.then(renew).catch((error: unknown) => settings.onError?.(error));
      },
      Math.max(50, Math.floor(settings.leaseMs / 3)),
    );
    timer.unref();
  };
  /** Whether another process wanted the lane meanwhile. */
  const release = async (lease: LaneLease): Promise<boolean> => {
    const released = await database.query<{ wanted: boolean }>(
      `update forja_lane_leases set owner = null, expires_at = now()
       where session_id = $1 and lane = $2 and owner = $3 and epoch = $4 returning wanted`,
      [lease.sessionId, lease.lane, owner, lease.epoch],
    );
    return released.rows[0]?.wanted === true;
  };

  return {
    shared: true,
    owner,
    async hold(sessionId, lane, work, options = {}) {
      const key = laneKey(sessionId, lane);
      if (held.has(key)) throw new LaneHeldElsewhereError(sessionId, lane, owner);
      const epoch = await takeLane(database, { sessionId, lane, owner, seconds });
      if (held.has(key)) {
        // Another hold of this process took the row between our check and our take: not ours to run.
        throw new LaneHeldElsewhereError(sessionId, lane, owner);
      }
      const lease: LaneLease = {
        sessionId,
        lane,
        owner,
        epoch,
        released: false,
        lost: false,
      };
      held.set(key, lease);
      startRenewing();
      try {
        return await laneContext.run(lease, work);
      } finally {
        lease.released = true;
        held.delete(key);
        const wanted = await release(lease).catch((error: unknown) => {
          settings.onError?.(error);
          return false;
        });
        if (wanted) options.onWanted?.();
      }
    },
    async want(sessionId, lane) {
      // Row-locked against the holder's release: either it sees the flag, or this sees the lane released.
      const marked = await database.query(
        `update forja_lane_leases set wanted = true
         where session_id = $1 and lane = $2 and owner is not null returning owner`,
        [sessionId, lane],
      );
      return marked.rows.length > 0 ? 'held' : 'free';
    },
    current: (sessionId) => currentLease(owner, sessionId),
    orphaned: async () =>
      (await orphanedLanes(database)).filter(
        (entry) => !held.has(laneKey(entry.sessionId, entry.lane)),
      ),
    async close() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      await renewing;
      for (const lease of held.values()) {
        lease.released = true;
        await release(lease).catch((error: unknown) => settings.onError?.(error));
      }
      held.clear();
    },
  };
}

/** Takes the lane's row (free, expired, or its owner gone) with a new epoch; else says who holds it. */
async function takeLane(
  database: Database,
  {
    sessionId,
    lane,
    owner,
    seconds,
  }: { sessionId: string; lane: string; owner: string; seconds: number },
): Promise<number> {
  const taken = await database.query<{ epoch: number | null }>(
    'select forja_take_lane($1, $2, $3, $4) as epoch',
    [sessionId, lane, owner, seconds],
  );
  const epoch = taken.rows[0]?.epoch;
  if (epoch !== null && epoch !== undefined) return Number(epoch);
  const holder = await database.query<{ owner: string | null }>(
    'select owner from forja_lane_leases where session_id = $1 and lane = $2',
    [sessionId, lane],
  );
  throw new LaneHeldElsewhereError(sessionId, lane, holder.rows[0]?.owner ?? null);
}

/** The lanes leased by a process that is gone or stopped renewing, the longest expired first. */
async function orphanedLanes(
  database: Database,
): Promise<Array<{ sessionId: string; lane: string }>> {
  const rows = await database.query<{ session_id: string; lane: string }>(
    `select l.session_id, l.lane from forja_lane_leases l
     where l.owner is not null
       and (l.expires_at < now() or not exists (select 1 from forja_processes p where p.id = l.owner))
     order by l.expires_at`,
  );
  return rows.rows.map((row) => ({ sessionId: row.session_id, lane: row.lane }));
}
