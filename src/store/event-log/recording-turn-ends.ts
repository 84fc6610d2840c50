import { withTurnEnds } from '../../domain/conversation/index.ts';
import type { EventLog } from './event-log.ts';

/**
 * The event log that records the end of every turn (ADR 0422): each append (and each append inside a caller's
 * transaction) that holds an event ending a turn gets that turn's `turn.ended` last, in the same batch, so no
 * writer has to remember it and a crash cannot separate the end from its record.
 */
export function recordingTurnEnds(eventLog: EventLog): EventLog {
  return {
    ...eventLog,
    append: (sessionId, events, options) =>
      eventLog.append(sessionId, withTurnEnds(events), options),
    appendWithin: (transaction, sessionId, events, options) =>
      eventLog.appendWithin(transaction, sessionId, withTurnEnds(events), options),
  };
}
