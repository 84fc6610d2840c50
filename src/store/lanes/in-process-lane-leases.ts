import { randomUUID } from 'node:crypto';
import {
  currentLease,
  LaneHeldElsewhereError,
  laneContext,
  laneKey,
  type LaneLease,
  type LaneLeases,
} from './lane-leases.ts';

/**
 * Leases kept in memory: embedded PGlite has one owner (the process that locked its data directory), so a lane
 * is this process's whenever no other work of this process holds it. Nothing to renew, nothing expires.
 */
export function createInProcessLaneLeases(owner: string = randomUUID()): LaneLeases {
  const held = new Map<string, LaneLease>();
  const wanted = new Set<string>();
  const epochs = new Map<string, number>();
  return {
    shared: false,
    owner,
    async hold(sessionId, lane, work, options = {}) {
      const key = laneKey(sessionId, lane);
      if (held.has(key)) throw new LaneHeldElsewhereError(sessionId, lane, owner);
      const epoch = (epochs.get(key) ?? 0) + 1;
      epochs.set(key, epoch);
      const lease: LaneLease = { sessionId, lane, owner, epoch, released: false, lost: false };
      held.set(key, lease);
      try {
        return await laneContext.run(lease, work);
      } finally {
        lease.released = true;
        held.delete(key);
        if (wanted.delete(key)) options.onWanted?.();
      }
    },
    async want(sessionId, lane) {
      const key = laneKey(sessionId, lane);
      if (!held.has(key)) return 'free';
      wanted.add(key);
      return 'held';
    },
    current: (sessionId) => currentLease(owner, sessionId),
    orphaned: async () => [],
    close: async () => {},
  };
}
