import { AppendFencedError } from '../event-log/append-events.ts';
import type { EventLog } from '../event-log/event-log.ts';
import { LaneLeaseLostError, type LaneLease, type LaneLeases } from './lane-leases.ts';

/**
 * The event log as a lane's work sees it (ADR 0170, 0205): when the leases are shared and the appending work
 * holds a lease on a lane of the session, its appends carry the lease as their `fence`, which the event log's
 * own append checks in the append's statement. So a fenced append takes the same path as any other — the
 * per-session queue, the notification after the commit (ADR 0180) — and a process that lost the lane gets
 * `LaneLeaseLostError` with nothing written. Other appends (HTTP, session-wide work) pass unchanged.
 */
export function fenceAppends(eventLog: EventLog, leases: LaneLeases): EventLog {
  if (!leases.shared) return eventLog;
  const fenced = (sessionId: string) => {
    const lease = leases.current(sessionId);
    if (lease === null) return null;
    return {
      fence: { lane: lease.lane, owner: lease.owner, epoch: lease.epoch },
      lost: (error: unknown) => Promise.reject(lostLease(lease, error)),
    };
  };
  return {
    read: eventLog.read,
    append(sessionId, events, options) {
      const lease = fenced(sessionId);
      if (lease === null) return eventLog.append(sessionId, events, options);
      return eventLog
        .append(sessionId, events, { ...options, fence: lease.fence })
        .catch(lease.lost);
    },
    appendWithin(transaction, sessionId, events, options) {
      const lease = fenced(sessionId);
      if (lease === null) return eventLog.appendWithin(transaction, sessionId, events, options);
      return eventLog
        .appendWithin(transaction, sessionId, events, { ...options, fence: lease.fence })
        .catch(lease.lost);
    },
  };
}

function lostLease(lease: LaneLease, error: unknown): unknown {
  if (!(error instanceof AppendFencedError)) return error;
  lease.lost = true;
  return new LaneLeaseLostError(lease);
}
