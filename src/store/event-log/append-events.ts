import { randomUUID } from 'node:crypto';
import { storableText, storableValue } from '../../lib/storable-text.ts';
import type { Queryable } from '../database.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../errors/postgres-error-codes.ts';
import type { AppendOutcome } from './append-outcome.ts';
import type { CommitNotifier } from './commit-notifier.ts';
import { toSessionEvent, type SessionEventRow } from './session-event-row.ts';
import type { NewSessionEvent, OutboxMessage } from './session-event.ts';

export interface AppendOptions {
  /** The seq the caller last saw; the append fails with a conflict when the session has moved on. */
  expectedSeq?: number;
  /**
   * The lease of the lane the appending work holds (ADR 0170, 0205): the append commits only while the lane's
   * lease row still names `owner` at `epoch` — checked, and locked against a take, in the append's own statement.
   * Otherwise it throws `AppendFencedError` and nothing is written.
   */
  fence?: AppendFence;
}

/** A lane lease as the append checks it: the fencing token. */
export interface AppendFence {
  lane: string;
  owner: string;
  epoch: number;
}

/** A fenced append whose lane lease is no longer the appender's: nothing was written. */
export class AppendFencedError extends Error {
  readonly sessionId: string;
  readonly fence: AppendFence;
  constructor(sessionId: string, fence: AppendFence, options?: { cause?: unknown }) {
    super(
      `Lane ${fence.lane} of session ${sessionId} is no longer held by ${fence.owner} at epoch ${fence.epoch}; nothing was appended.`,
      options,
    );
    this.name = 'AppendFencedError';
    this.sessionId = sessionId;
    this.fence = fence;
  }
}

/** Extra outbox rows derived from every appended event (a projection subscribes this way). */
export type OutboxRule = (
  event: { id: string; type: string; actor: string; payload: unknown },
  sessionId: string,
) => OutboxMessage[];

/** How often a batch retries after losing a race for a seq to another process on the PostgreSQL server. */
const MAX_RACE_RETRIES = 100;
/** A batch that keeps failing on a unique index (an event id used twice, say) runs its appends one at a time. */
const MAX_BATCH_RACE_RETRIES = 3;

/** One caller's append, as a batch takes it. */
export interface PendingAppend {
  events: readonly NewSessionEvent[];
  options?: AppendOptions;
}

/** What one append of a batch came to: its outcome, or the error its caller gets (a lost fence). */
export type BatchResult = { outcome: AppendOutcome } | { error: unknown };

/**
 * Appends events to a session with consecutive seqs after its last one, with their outbox rows, atomically.
 * With `expectedSeq`, a session that has moved on is a conflict and nothing is written. With `fence`, the lane's
 * lease is checked, and locked against a take, in the same statement (ADR 0205). It is a batch of one append.
 */
export async function appendEvents(
  database: Queryable,
  sessionId: string,
  events: readonly NewSessionEvent[],
  options: AppendOptions = {},
  outboxRules: readonly OutboxRule[] = [],
  inTransaction = false,
  notifier?: CommitNotifier,
): Promise<AppendOutcome> {
  const [result] = await appendBatch(
    database,
    sessionId,
    [{ events, options }],
    outboxRules,
    inTransaction,
    notifier,
  );
  if (result === undefined || 'error' in result) throw result?.error;
  return result.outcome;
}

/**
 * Several appends to one session, in order, in one call of `forja_append_event_batch` (migration 0013, ADR
 * 0248): one round trip and one commit for them all, each with its own outcome. An append whose expected seq is
 * not the head at its turn is a conflict, one whose fence no longer holds gets `AppendFencedError`; nothing of
 * either is written and the others go on. Losing a race for a seq to another process fails the whole statement,
 * so it is run again; a batch that keeps failing, or fails for another reason, runs its appends again one at a
 * time, so only the append at fault fails. `inTransaction` wraps the call in a savepoint so that a failure does not abort the
 * caller's transaction. The NOTIFY is sent by the function inside the transaction, unless `notifier` is given for
 * a batch that commits by itself: then the notifier sends it after the commit, once (ADR 0180). Inside a
 * caller's transaction the function always notifies: only the commit knows when.
 */
export async function appendBatch(
  database: Queryable,
  sessionId: string,
  appends: readonly PendingAppend[],
  outboxRules: readonly OutboxRule[] = [],
  inTransaction = false,
  notifier?: CommitNotifier,
): Promise<BatchResult[]> {
  const notifyAfterCommit = notifier !== undefined && !inTransaction;
  // Nothing of the batch was written: its appends run again one at a time, so only the one at fault fails.
  const oneAtATime = async () => {
    const results: BatchResult[] = [];
    for (const append of appends)
      results.push(
        ...(await appendBatch(database, sessionId, [append], outboxRules, inTransaction, notifier)),
      );
    return results;
  };
  let entries: string;
  try {
    entries = JSON.stringify(appends.map((append) => batchEntry(sessionId, append, outboxRules)));
  } catch (error) {
    // An append that cannot be stored at all (ADR 0305) fails alone; the others of the batch go on.
    return appends.length === 1 ? [{ error }] : oneAtATime();
  }
  const parameters = [sessionId, entries, !notifyAfterCommit];
  for (let attempt = 0; ; attempt += 1) {
    try {
      const rows = await callAppend(database, BATCH_SQL, parameters, inTransaction);
      const results = await Promise.all(
        appends.map((append, index) =>
          resultOf(
            database,
            sessionId,
            append,
            rows.filter((row) => row.append_index === index + 1),
          ),
        ),
      );
      const lastSeq = Math.max(
        0,
        ...results.map((result) =>
          'outcome' in result && result.outcome.success && result.outcome.events.length > 0
            ? result.outcome.lastSeq
            : 0,
        ),
      );
      if (notifyAfterCommit && lastSeq > 0) notifier?.announce(sessionId, lastSeq);
      return results;
    } catch (error) {
      if (isForeignKeyViolation(error)) return refusedAll(database, sessionId, appends);
      // Another process took a seq first: nothing was written; the batch runs again from the new head.
      const retries = appends.length === 1 ? MAX_RACE_RETRIES : MAX_BATCH_RACE_RETRIES;
      if (isUniqueViolation(error) && attempt < retries) continue;
      if (appends.length === 1)
        return isUniqueViolation(error) ? refusedAll(database, sessionId, appends) : [{ error }];
      return oneAtATime();
    }
  }
}

/**
 * An append as the batch function reads it: its events with ids, their outbox rows, its checks. What goes in is
 * made storable here, the one door every event passes: a NUL or a lone surrogate a model or a process sent
 * becomes U+FFFD instead of failing the statement (ADR 0305).
 */
function batchEntry(sessionId: string, append: PendingAppend, outboxRules: readonly OutboxRule[]) {
  const withIds = append.events.map((event) => ({
    id: event.id ?? randomUUID(),
    type: event.type,
    actor: storableText(event.actor),
    payload: storableValue(event.payload ?? {}),
  }));
  const outbox = withIds.flatMap((event, index) =>
    [
      ...(append.events[index]?.outbox ?? []),
      ...outboxRules.flatMap((rule) => rule(event, sessionId)),
    ].map((message) => ({
      aggregate_type: message.aggregateType,
      aggregate_id: message.aggregateId,
      event_id: event.id,
      payload: storableValue(message.payload ?? {}),
    })),
  );
  const { expectedSeq, fence } = append.options ?? {};
  return {
    events: withIds,
    outbox,
    ...(expectedSeq === undefined ? {} : { expected_seq: expectedSeq }),
    ...(fence === undefined ? {} : { fence }),
  };
}

/** A row of `forja_append_event_batch`: an appended event of one append, or that append's refusal. */
type BatchRow = Partial<SessionEventRow> & {
  append_index: number;
  refusal: 'fenced' | 'conflict' | null;
  last_seq: number;
};

async function resultOf(
  database: Queryable,
  sessionId: string,
  append: PendingAppend,
  rows: readonly BatchRow[],
): Promise<BatchResult> {
  const first = rows[0];
  const { expectedSeq, fence } = append.options ?? {};
  // No row at all: the session does not exist.
  if (first === undefined)
    return { outcome: await explainRefusal(database, sessionId, expectedSeq) };
  if (first.refusal === 'fenced' && fence)
    return { error: new AppendFencedError(sessionId, fence) };
  if (first.refusal === 'conflict' && expectedSeq !== undefined)
    return { outcome: conflict(sessionId, expectedSeq, first.last_seq) };
  const events = rows
    .filter((row): row is BatchRow & SessionEventRow => row.id !== null && row.id !== undefined)
    .map(toSessionEvent);
  return { outcome: { success: true, events, lastSeq: first.last_seq } };
}

async function refusedAll(
  database: Queryable,
  sessionId: string,
  appends: readonly PendingAppend[],
): Promise<BatchResult[]> {
  const results: BatchResult[] = [];
  for (const append of appends)
    results.push({
      outcome: await explainRefusal(database, sessionId, append.options?.expectedSeq),
    });
  return results;
}

const BATCH_SQL =
  'select * from forja_append_event_batch($1::uuid, $2::jsonb, $3::boolean) order by append_index, seq';

async function callAppend(
  database: Queryable,
  sql: string,
  parameters: unknown[],
  inTransaction: boolean,
): Promise<BatchRow[]> {
  if (!inTransaction) return (await database.query<BatchRow>(sql, parameters)).rows;
  await database.query('savepoint forja_append');
  try {
    const rows = (await database.query<BatchRow>(sql, parameters)).rows;
    await database.query('release savepoint forja_append');
    return rows;
  } catch (error) {
    await database.query('rollback to savepoint forja_append');
    throw error;
  }
}

async function explainRefusal(
  database: Queryable,
  sessionId: string,
  expectedSeq: number | undefined,
): Promise<AppendOutcome> {
  const current = await database.query<{ last_seq: number | null }>(
    'select (select coalesce(max(seq), 0) from session_events where session_id = sessions.id) as last_seq from sessions where id = $1',
    [sessionId],
  );
  const actualSeq = current.rows[0]?.last_seq;
  if (actualSeq === undefined || actualSeq === null) {
    return {
      success: false,
      error: { kind: 'session_not_found', sessionId, message: `No session with id ${sessionId}.` },
    };
  }
  if (expectedSeq === undefined || expectedSeq === actualSeq)
    return { success: true, events: [], lastSeq: actualSeq };
  return conflict(sessionId, expectedSeq, actualSeq);
}

function conflict(sessionId: string, expectedSeq: number, actualSeq: number): AppendOutcome {
  return {
    success: false,
    error: {
      kind: 'expected_seq_conflict',
      sessionId,
      expectedSeq,
      actualSeq,
      message: `Session ${sessionId} is at seq ${actualSeq}, not the expected ${expectedSeq}; read the new events and retry.`,
    },
  };
}
