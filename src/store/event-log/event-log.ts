import type { Database, Queryable } from '../database.ts';
import { appendEvents, type AppendOptions, type OutboxRule } from './append-events.ts';
import type { AppendOutcome } from './append-outcome.ts';
import { readEvents, type ReadOptions } from './read-events.ts';
import type { NewSessionEvent, SessionEvent } from './session-event.ts';

/** The session event log: the single source of truth every other state is derived from. */
export interface EventLog {
  append(
    sessionId: string,
    events: readonly NewSessionEvent[],
    options?: AppendOptions,
  ): Promise<AppendOutcome>;
  /** The same append inside a transaction the caller holds, so a table write and its event commit together. */
  appendWithin(
    transaction: Queryable,
    sessionId: string,
    events: readonly NewSessionEvent[],
    options?: AppendOptions,
  ): Promise<AppendOutcome>;
  read(sessionId: string, options?: ReadOptions): Promise<SessionEvent[]>;
}

export function createEventLog(
  database: Database,
  outboxRules: readonly OutboxRule[] = [],
): EventLog {
  return {
    append: (sessionId, events, options) =>
      appendEvents(database, sessionId, events, options, outboxRules),
    appendWithin: (transaction, sessionId, events, options) =>
      appendEvents(transaction, sessionId, events, options, outboxRules, true),
    read: (sessionId, options) => readEvents(database, sessionId, options),
  };
}
