import { randomUUID } from 'node:crypto';
import type { Queryable } from '../database.ts';
import type { AppendOutcome } from './append-outcome.ts';
import { toSessionEvent, type SessionEventRow } from './session-event-row.ts';
import type { NewSessionEvent, OutboxMessage } from './session-event.ts';

export interface AppendOptions {
  /** The seq the caller last saw; the append fails with a conflict when the session has moved on. */
  expectedSeq?: number;
}

/** Extra outbox rows derived from every appended event (a projection subscribes this way). */
export type OutboxRule = (event: Required<Omit<NewSessionEvent, 'outbox'>>, sessionId: string) => OutboxMessage[];

/**
 * Appends events to a session in one SQL statement: it advances `sessions.last_seq` (locking that row, which
 * serialises appenders of one session), inserts the events with consecutive seqs and writes their outbox
 * rows. Either all of it commits or none of it does; a stale `expectedSeq` writes nothing.
 */
export async function appendEvents(
  database: Queryable,
  sessionId: string,
  events: readonly NewSessionEvent[],
  options: AppendOptions = {},
  outboxRules: readonly OutboxRule[] = [],
): Promise<AppendOutcome> {
  const withIds = events.map((event, index) => ({ n: index + 1, id: event.id ?? randomUUID(), type: event.type, actor: event.actor, payload: event.payload ?? {} }));
  const outboxRows = withIds.flatMap((event, index) => {
    const explicit = events[index]?.outbox ?? [];
    const derived = outboxRules.flatMap((rule) => rule({ id: event.id, type: event.type, actor: event.actor, payload: event.payload }, sessionId));
    return [...explicit, ...derived].map((message) => ({
      aggregate_type: message.aggregateType,
      aggregate_id: message.aggregateId,
      event_id: event.id,
      payload: message.payload ?? {},
    }));
  });
  const result = await database.query<SessionEventRow>(APPEND_SQL, [
    sessionId,
    withIds.length,
    options.expectedSeq ?? null,
    JSON.stringify(withIds),
    JSON.stringify(outboxRows),
  ]);
  if (result.rows.length === withIds.length && withIds.length > 0) {
    const appended = result.rows.map(toSessionEvent);
    return { success: true, events: appended, lastSeq: appended[appended.length - 1]!.seq };
  }
  return explainRefusal(database, sessionId, options.expectedSeq);
}

async function explainRefusal(database: Queryable, sessionId: string, expectedSeq: number | undefined): Promise<AppendOutcome> {
  const current = await database.query<{ last_seq: number }>('select last_seq from sessions where id = $1', [sessionId]);
  const actualSeq = current.rows[0]?.last_seq;
  if (actualSeq === undefined) {
    return { success: false, error: { kind: 'session_not_found', sessionId, message: `No session with id ${sessionId}.` } };
  }
  if (expectedSeq === undefined || expectedSeq === actualSeq) return { success: true, events: [], lastSeq: actualSeq };
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

const APPEND_SQL = `
  with stream as (
    update sessions set last_seq = last_seq + $2
    where id = $1 and $2 > 0 and ($3::integer is null or last_seq = $3::integer)
    returning last_seq - $2 as base_seq
  ),
  appended as (
    insert into session_events (id, session_id, seq, type, actor, payload)
    select e.id, $1, stream.base_seq + e.n, e.type, e.actor, e.payload
    from stream, jsonb_to_recordset($4::jsonb) as e (n integer, id uuid, type text, actor text, payload jsonb)
    returning id, session_id, seq, type, actor, payload, created_at
  ),
  outboxed as (
    insert into outbox (aggregate_type, aggregate_id, event_id, payload)
    select o.aggregate_type, o.aggregate_id, o.event_id, o.payload
    from stream, jsonb_to_recordset($5::jsonb) as o (aggregate_type text, aggregate_id text, event_id uuid, payload jsonb)
    returning id
  ),
  notified as (
    select pg_notify('forja_session_events', $1::text || ':' || max(seq)) from appended having count(*) > 0
  )
  select appended.* from appended, (select count(*) from notified) as flush order by seq`;
