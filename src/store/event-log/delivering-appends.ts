import type { AppendOutcome } from './append-outcome.ts';
import type { EventLog } from './event-log.ts';
import type { EventNotifications } from './event-notifications.ts';

/**
 * The event log whose committed appends (not those inside a caller's transaction, which has not committed yet)
 * are handed to this process's feeds in memory: a stream sees them without reading the log again.
 */
export function deliveringAppends(eventLog: EventLog, notifications: EventNotifications): EventLog {
  return {
    ...eventLog,
    async append(sessionId, events, options) {
      const committed = notifications.appending(sessionId);
      let outcome: AppendOutcome | undefined;
      try {
        outcome = await eventLog.append(sessionId, events, options);
        return outcome;
      } finally {
        committed(outcome?.success ? outcome.events : []);
      }
    },
  };
}
