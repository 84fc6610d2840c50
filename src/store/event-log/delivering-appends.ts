import type { AppendOutcome } from './append-outcome.ts';
import type { EventLog } from './event-log.ts';
import type { EventNotifications } from './event-notifications.ts';

/**
 * The event log whose committed appends (not those inside a caller's transaction, which has not committed yet)
 * are handed to this process's feeds in memory: a stream sees them without reading the log again. `committed`
 * hears of each as it commits, before its NOTIFY comes back (the memory workers' wake, ADR 0427).
 */
export function deliveringAppends(
  eventLog: EventLog,
  notifications: EventNotifications,
  committed: () => void = () => undefined,
): EventLog {
  return {
    ...eventLog,
    async append(sessionId, events, options) {
      const delivered = notifications.appending(sessionId);
      let outcome: AppendOutcome | undefined;
      try {
        outcome = await eventLog.append(sessionId, events, options);
        return outcome;
      } finally {
        delivered(outcome?.success ? outcome.events : []);
        if (outcome?.success) committed();
      }
    },
  };
}
