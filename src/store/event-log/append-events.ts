import { randomUUID } from 'node:crypto';
import type { Queryable } from '../database.ts';
import {
  isForeignKeyViolation,
  isLaneFenceRefused,
  isUniqueViolation,
} from '../errors/postgres-error-codes.ts';
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

/** How often an append without an expected seq retries after losing a race on the PostgreSQL server. */
const MAX_RACE_RETRIES = 100;

/**
 * Appends events to a session with consecutive seqs after its last one, with their outbox rows, atomically
 * (one call of the `forja_append_events` database function). With `expectedSeq`, a session that has moved on
 * is a conflict and nothing is written. `inTransaction` wraps the call in a savepoint so that losing a race
 * does not abort the caller's transaction. With `fence`, the same statement first checks the lane's lease
 * (ADR 0205). The NOTIFY is sent by the function inside the transaction, unless
 * `notifier` is given for an append that commits by itself: then the notifier sends it after the commit
 * (ADR 0180). Inside a caller's transaction the function always notifies: only the commit knows when.
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
  if (events.length === 0) return explainRefusal(database, sessionId, options.expectedSeq);
  const withIds = events.map((event) => ({
    id: event.id ?? randomUUID(),
    type: event.type,
    actor: event.actor,
    payload: event.payload ?? {},
  }));
  const outboxRows = withIds.flatMap((event, index) =>
    [
      ...(events[index]?.outbox ?? []),
      ...outboxRules.flatMap((rule) => rule(event, sessionId)),
    ].map((message) => ({
      aggregate_type: message.aggregateType,
      aggregate_id: message.aggregateId,
      event_id: event.id,
      payload: message.payload ?? {},
    })),
  );
  const notifyAfterCommit = notifier !== undefined && !inTransaction;
  const { fence } = options;
  const parameters = [
    sessionId,
    options.expectedSeq ?? null,
    JSON.stringify(withIds),
    JSON.stringify(outboxRows),
    !notifyAfterCommit,
    ...(fence ? [fence.lane, fence.owner, fence.epoch] : []),
  ];
  const sql = fence ? FENCED_APPEND_SQL : APPEND_SQL;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const result = await callAppend(database, sql, parameters, inTransaction);
      if (result.length === 0) return explainRefusal(database, sessionId, options.expectedSeq);
      const appended = result.map(toSessionEvent);
      const lastSeq = appended[appended.length - 1]!.seq;
      if (notifyAfterCommit) notifier?.announce(sessionId, lastSeq);
      return { success: true, events: appended, lastSeq };
    } catch (error) {
      if (fence && isLaneFenceRefused(error))
        throw new AppendFencedError(sessionId, fence, { cause: error });
      if (isForeignKeyViolation(error))
        return explainRefusal(database, sessionId, options.expectedSeq);
      if (!isUniqueViolation(error)) throw error;
      // Another append took the seq first. With an expected seq that is the caller's conflict; without, try again.
      if (options.expectedSeq !== undefined || attempt >= MAX_RACE_RETRIES)
        return explainRefusal(database, sessionId, options.expectedSeq);
    }
  }
}

const APPEND_SQL =
  'select * from forja_append_events($1::uuid, $2::integer, $3::jsonb, $4::jsonb, $5::boolean) order by seq';
/** The same append behind the lane's fence, in the same statement (migration 0012). */
const FENCED_APPEND_SQL =
  'select * from forja_append_fenced_events($1::uuid, $2::integer, $3::jsonb, $4::jsonb, $5::boolean, $6::text, $7::uuid, $8::bigint) order by seq';

async function callAppend(
  database: Queryable,
  sql: string,
  parameters: unknown[],
  inTransaction: boolean,
): Promise<SessionEventRow[]> {
  if (!inTransaction) return (await database.query<SessionEventRow>(sql, parameters)).rows;
  await database.query('savepoint forja_append');
  try {
    const rows = (await database.query<SessionEventRow>(sql, parameters)).rows;
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
