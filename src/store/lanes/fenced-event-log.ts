import type { Database } from '../database.ts';
import type { EventLog } from '../event-log/event-log.ts';
import type { LaneLeases } from './lane-leases.ts';

/**
 * The event log as a lane's work sees it (ADR 0170): when the leases are shared and the appending work holds a
 * lease on a lane of the session, the append runs in a transaction that first checks the lease row still names
 * this process at this epoch (and locks it until the commit). A process that lost the lane gets
 * `LaneLeaseLostError` and nothing is written. Other appends (HTTP, session-wide work) pass unchanged.
 */
export function fenceAppends(eventLog: EventLog, database: Database, leases: LaneLeases): EventLog {
  if (!leases.shared) return eventLog;
  return {
    read: eventLog.read,
    append(sessionId, events, options) {
      const lease = leases.current(sessionId);
      if (lease === null) return eventLog.append(sessionId, events, options);
      return database.transaction(async (transaction) => {
        await leases.fence(transaction, lease);
        return eventLog.appendWithin(transaction, sessionId, events, options);
      });
    },
    async appendWithin(transaction, sessionId, events, options) {
      const lease = leases.current(sessionId);
      if (lease !== null) await leases.fence(transaction, lease);
      return eventLog.appendWithin(transaction, sessionId, events, options);
    },
  };
}
