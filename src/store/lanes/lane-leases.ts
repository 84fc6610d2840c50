import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who runs a lane (one agent of one session) — ADR 0170. One owner at a time: `hold` runs work only while this
 * process holds the lane's lease, and the appends of that work carry the lease (`current`, which `fenceAppends` gives each append
 * as its fence, checked in the append's own statement: ADR 0205), so a process that lost its lane cannot write to it.
 *
 * Two adapters: in-process (`createInProcessLaneLeases`, embedded PGlite, whose data directory has one owner)
 * and PostgreSQL (`createPostgresLaneLeases`, a lease row per lane with an owner, an epoch and an expiry, shared
 * by every process on the server).
 */
export interface LaneLeases {
  /** Whether other processes share the lanes (the server adapter); false in-process. */
  readonly shared: boolean;
  /** This process's id (its `forja_processes` row on the server). */
  readonly owner: string;
  /**
   * Takes the lane's lease, runs `work` holding it (renewed meanwhile) and releases it. Refuses with
   * `LaneHeldElsewhereError` when another holder has the lane; nothing runs then.
   */
  hold<T>(
    sessionId: string,
    lane: string,
    work: () => Promise<T>,
    options?: { onWanted?: () => void },
  ): Promise<T>;
  /**
   * Work for a lane that `hold` refused: 'held' when the lane is still held, and its holder is told (its
   * `onWanted` runs once it releases the lane); 'free' when it was released meanwhile, to take again.
   */
  want(sessionId: string, lane: string): Promise<'held' | 'free'>;
  /** The lease the calling work holds on a lane of `sessionId` (from inside `hold`), else null. */
  current(sessionId: string): LaneLease | null;
  /** Lanes whose holder died or stopped renewing: leases to take over (always none in-process). */
  orphaned(): Promise<Array<{ sessionId: string; lane: string }>>;
  /** Stops renewing and releases what is still held. */
  close(): Promise<void>;
}

export interface LaneLease {
  readonly sessionId: string;
  readonly lane: string;
  readonly owner: string;
  /** Grows with every take of the lane: the fencing token. */
  readonly epoch: number;
  /** Set when `hold` ended: work started from inside it and still running carries no lease. */
  released: boolean;
  /** Set when a renewal or a fence found the lease taken by another holder. */
  lost: boolean;
}

export class LaneHeldElsewhereError extends Error {
  readonly sessionId: string;
  readonly lane: string;
  readonly holder: string | null;
  constructor(sessionId: string, lane: string, holder: string | null) {
    super(
      `Lane ${lane} of session ${sessionId} is held by ${holder === null ? 'another holder' : `process ${holder}`}; it runs the lane's work.`,
    );
    this.name = 'LaneHeldElsewhereError';
    this.sessionId = sessionId;
    this.lane = lane;
    this.holder = holder;
  }
}

export class LaneLeaseLostError extends Error {
  readonly lease: LaneLease;
  constructor(lease: LaneLease) {
    super(
      `The lease of lane ${lease.lane} of session ${lease.sessionId} (epoch ${lease.epoch}) is no longer held by process ${lease.owner}; nothing was appended.`,
    );
    this.name = 'LaneLeaseLostError';
    this.lease = lease;
  }
}

/** The lease the running work holds, carried through its async calls. Shared by both adapters. */
export const laneContext = new AsyncLocalStorage<LaneLease>();

export const laneKey = (sessionId: string, lane: string) => `${sessionId}\u0000${lane}`;

/** The lease of the calling work for `sessionId`, when `owner` holds it and its `hold` has not ended. */
export function currentLease(owner: string, sessionId: string): LaneLease | null {
  const lease = laneContext.getStore();
  if (lease === undefined || lease.owner !== owner || lease.sessionId !== sessionId) return null;
  return lease.released ? null : lease;
}
