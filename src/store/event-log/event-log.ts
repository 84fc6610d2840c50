import type { Database, Queryable } from '../database.ts';
import { appendEvents, type AppendOptions, type OutboxRule } from './append-events.ts';
import type { AppendOutcome } from './append-outcome.ts';
import { createCommitNotifier } from './commit-notifier.ts';
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

/**
 * The event log over a database. On the PostgreSQL server, appends of this process to one session run one after
 * the other, in the order they were asked (a queue per session): they would otherwise race for the same seq and
 * all but one retry. (PGlite runs one statement at a time: its appends never race.)
 * Appends to different sessions run side by side. On the PostgreSQL server an append's NOTIFY is sent after
 * its commit, with those of the appends that committed meanwhile (ADR 0180); on PGlite, one connection and no
 * lock to wait for, the append function sends it inside the transaction.
 */
export function createEventLog(
  database: Database,
  outboxRules: readonly OutboxRule[] = [],
): EventLog {
  const notifier = database.kind === 'postgres' ? createCommitNotifier(database) : undefined;
  const queues = new Map<string, Promise<unknown>>();
  const inSessionOrder = <T>(sessionId: string, work: () => Promise<T>): Promise<T> => {
    // PGlite runs one statement at a time on its one connection: its appends never race, nothing to queue.
    if (database.kind !== 'postgres') return work();
    const previous = queues.get(sessionId);
    const next = previous ? previous.then(work, work) : work();
    const tail = next.catch(() => undefined);
    queues.set(sessionId, tail);
    void tail.then(() => {
      if (queues.get(sessionId) === tail) queues.delete(sessionId);
    });
    return next;
  };
  return {
    append: (sessionId, events, options) =>
      inSessionOrder(sessionId, () =>
        appendEvents(database, sessionId, events, options, outboxRules, false, notifier),
      ),
    appendWithin: (transaction, sessionId, events, options) =>
      appendEvents(transaction, sessionId, events, options, outboxRules, true),
    read: (sessionId, options) => readEvents(database, sessionId, options),
  };
}
