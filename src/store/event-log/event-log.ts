import type { Database, Queryable } from '../database.ts';
import {
  appendBatch,
  appendEvents,
  type AppendOptions,
  type BatchResult,
  type OutboxRule,
  type PendingAppend,
} from './append-events.ts';
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

/** The most appends one batch takes; the rest wait for the next. */
const MAX_BATCH_APPENDS = 100;

interface WaitingAppend extends PendingAppend {
  settle(result: BatchResult): void;
}

/**
 * The event log over a database. Appends of this process to one session run in the order they were asked (a
 * queue per session): on the server they would otherwise race for the same seq and all but one retry. The
 * queue commits in groups (ADR 0248): an append to a session with none under way goes at once; those asked
 * meanwhile wait, and go together in one call, one transaction, when it is done — each with its own outcome.
 * Appends to different sessions run side by side. On the PostgreSQL server a batch's NOTIFY is sent after its
 * commit, with those of the appends that committed meanwhile (ADR 0180) — unless it is the only append of this
 * process under way, which notifies in its own statement (ADR 0263); on PGlite, one connection and no lock to
 * wait for, the append function sends it inside the transaction.
 */
export function createEventLog(
  database: Database,
  outboxRules: readonly OutboxRule[] = [],
  options: {
    /** False: every batch on the server notifies after its commit, alone or not (ADR 0180 without 0263; the benchmark's baseline). */
    notifyWhenAlone?: boolean;
  } = {},
): EventLog {
  const notifyWhenAlone = options.notifyWhenAlone ?? true;
  const notifier = database.kind === 'postgres' ? createCommitNotifier(database) : undefined;
  const queues = new Map<string, WaitingAppend[]>();
  const drain = async (sessionId: string, queue: WaitingAppend[]) => {
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH_APPENDS);
      // Alone, no other append of this process is in flight, so no commit here waits on the lock a NOTIFY takes:
      // the function notifies in its own statement and the statement after the commit is saved (ADR 0263).
      const alone = notifyWhenAlone && queues.size === 1;
      const results = await appendBatch(
        database,
        sessionId,
        batch,
        outboxRules,
        false,
        alone ? undefined : notifier,
      ).catch((error: unknown) => batch.map((): BatchResult => ({ error })));
      batch.forEach((append, index) => append.settle(results[index]!));
    }
    queues.delete(sessionId);
  };
  return {
    append: (sessionId, events, options) =>
      new Promise<AppendOutcome>((resolve, reject) => {
        const settle = (result: BatchResult) =>
          'error' in result ? reject(result.error) : resolve(result.outcome);
        const queue = queues.get(sessionId);
        if (queue !== undefined) return void queue.push({ events, options, settle });
        const started = [{ events, options, settle }];
        queues.set(sessionId, started);
        void drain(sessionId, started);
      }),
    appendWithin: (transaction, sessionId, events, options) =>
      appendEvents(transaction, sessionId, events, options, outboxRules, true),
    read: (sessionId, options) => readEvents(database, sessionId, options),
  };
}
