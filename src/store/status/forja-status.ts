import type { Database } from '../database.ts';
import { turnEndsSql } from '../../domain/conversation/index.ts';

/** A row of `forja_processes` (migration 0009): a Forja process that registered itself and beats `last_seen`. */
export interface ForjaProcessStatus {
  id: string;
  pid: number;
  host: string;
  started_at: string;
  last_seen: string;
  /** Milliseconds since its last heartbeat. */
  silent_ms: number;
  /**
   * Whether it is running. On a server: it beat within `staleAfterMs`. On PGlite: never — whoever reads the
   * embedded database holds its data directory, so a row found there was left by a process that stopped.
   */
  alive: boolean;
  /** Which model each agent kind of the process uses, as it recorded when it started (migration 0018). */
  models: ProcessModel[];
}

/** One agent kind's model in a process: the variable that chose it, or null provider/model when none works. */
export interface ProcessModel {
  agent: string;
  variable: string;
  provider: string | null;
  model: string | null;
}

/** A process that stopped cleanly (SIGTERM, SIGINT, its launcher gone): its row moved to `forja_process_exits`. */
export interface CleanExitStatus {
  id: string;
  pid: number;
  host: string;
  started_at: string;
  stopped_at: string;
}

export interface TurnInProgressStatus {
  agent: string;
  turn_id: string;
  kind: string;
  started_at: string;
}

export interface SessionQueueStatus {
  session_id: string;
  project_id: string;
  title: string | null;
  /** The person's messages to an agent written after that agent's last turn started: each waits for a turn. */
  unanswered_messages: number;
  /** Agents activated by a handoff that have not had a turn yet (their kickoff is owed). */
  pending_kickoffs: string[];
  /** Lanes whose last turn has not ended (running, waiting for an approval, or cut off by a stop). */
  turns_in_progress: TurnInProgressStatus[];
  /** Model calls reserved and not yet settled, and the tokens they hold against the budget. */
  reserved_calls: number;
  reserved_tokens: number;
  /**
   * Which process holds each lane of the session that is leased now (`forja_lane_leases`, ADR 0170). Null on
   * PGlite: the one process that holds the data directory runs every lane, with in-process leases.
   */
  lane_owners: LaneOwnerStatus[] | null;
}

/** A lane's lease that has not run out: the process running that lane. */
export interface LaneOwnerStatus {
  lane: string;
  /** The owner's `forja_processes` id, and its pid when its row is still there. */
  owner: string;
  pid: number | null;
  epoch: number;
  expires_at: string;
}

export interface OutboxStatus {
  /** Rows not yet processed. */
  pending: number;
  /** How long the oldest of them has waited (null when none waits). */
  oldest_pending_at: string | null;
  oldest_pending_age_ms: number | null;
  /** Pending rows that have failed at least once and wait for a retry. */
  retrying: number;
  by_type: Array<{ aggregate_type: string; pending: number; oldest_pending_age_ms: number }>;
}

export interface ForjaStatus {
  database: Database['kind'];
  checked_at: string;
  /** Registered processes: alive, or left by one that stopped without a clean exit (a crash, a kill -9). */
  processes: ForjaProcessStatus[];
  /** The newest processes that stopped cleanly, newest first (at most 5). */
  stopped_cleanly: CleanExitStatus[];
  outbox: OutboxStatus;
  reserved: { calls: number; tokens: number };
  /** Sessions with something queued, running or reserved; idle sessions are only counted. */
  sessions: SessionQueueStatus[];
  idle_sessions: number;
}

export interface ReadStatusOptions {
  /** A server process whose heartbeat is older than this is not counted alive. */
  staleAfterMs: number;
}

/** What the Forja processes on this database are doing, read in one snapshot (`forja status`). */
export async function readForjaStatus(
  database: Database,
  options: ReadStatusOptions,
): Promise<ForjaStatus> {
  return database.transaction(async (transaction) => {
    if (database.kind === 'postgres')
      await transaction.query('set transaction isolation level repeatable read, read only');
    const now = await transaction.query<{ now: Date }>('select now() as now');
    const processes = await transaction.query<{
      id: string;
      pid: number;
      host: string;
      started_at: Date;
      last_seen: Date;
      silent_ms: number;
      models: ProcessModel[] | string;
    }>(
      `select id, pid, host, started_at, last_seen, models,
              (extract(epoch from now() - last_seen) * 1000)::float8 as silent_ms
       from forja_processes order by started_at, id`,
    );
    const outbox = await transaction.query<{
      aggregate_type: string;
      pending: number;
      retrying: number;
      oldest: Date;
      oldest_age_ms: number;
    }>(
      `select aggregate_type, count(*)::int as pending, (count(*) filter (where attempts > 0))::int as retrying,
              min(created_at) as oldest, (extract(epoch from now() - min(created_at)) * 1000)::float8 as oldest_age_ms
       from outbox where processed_at is null group by aggregate_type order by aggregate_type`,
    );
    const reserved = await transaction.query<{ calls: number; tokens: number }>(
      `select count(*)::int as calls, coalesce(sum(reserved_tokens), 0)::float8 as tokens
       from token_usage where outcome = 'reserved'`,
    );
    const exits = await transaction.query<{
      id: string;
      pid: number;
      host: string;
      started_at: Date;
      stopped_at: Date;
    }>(
      'select id, pid, host, started_at, stopped_at from forja_process_exits order by stopped_at desc, id limit 5',
    );
    const sessions = await transaction.query<SessionRow>(SESSION_QUEUES);
    const total = await transaction.query<{ count: number }>(
      'select count(*)::int as count from sessions',
    );

    const byType = outbox.rows.map((row) => ({
      aggregate_type: row.aggregate_type,
      pending: row.pending,
      oldest_pending_age_ms: Math.max(0, Math.round(row.oldest_age_ms)),
    }));
    const oldest = outbox.rows.reduce<(typeof outbox.rows)[number] | null>(
      (found, row) => (found === null || row.oldest < found.oldest ? row : found),
      null,
    );
    return {
      database: database.kind,
      checked_at: now.rows[0]!.now.toISOString(),
      processes: processes.rows.map((row) => ({
        id: row.id,
        pid: row.pid,
        host: row.host,
        started_at: row.started_at.toISOString(),
        last_seen: row.last_seen.toISOString(),
        silent_ms: Math.max(0, Math.round(row.silent_ms)),
        alive: database.kind === 'postgres' && row.silent_ms <= options.staleAfterMs,
        models: typeof row.models === 'string' ? JSON.parse(row.models) : row.models,
      })),
      stopped_cleanly: exits.rows.map((row) => ({
        id: row.id,
        pid: row.pid,
        host: row.host,
        started_at: row.started_at.toISOString(),
        stopped_at: row.stopped_at.toISOString(),
      })),
      outbox: {
        pending: byType.reduce((sum, row) => sum + row.pending, 0),
        oldest_pending_at: oldest === null ? null : oldest.oldest.toISOString(),
        oldest_pending_age_ms:
          oldest === null ? null : Math.max(0, Math.round(oldest.oldest_age_ms)),
        retrying: outbox.rows.reduce((sum, row) => sum + row.retrying, 0),
        by_type: byType,
      },
      reserved: { calls: reserved.rows[0]!.calls, tokens: Number(reserved.rows[0]!.tokens) },
      sessions: sessions.rows.map((row) => toSessionQueue(row, database.kind)),
      idle_sessions: total.rows[0]!.count - sessions.rows.length,
    };
  });
}

interface SessionRow {
  session_id: string;
  project_id: string;
  title: string | null;
  unanswered_messages: number;
  pending_kickoffs: string[] | null;
  turns_in_progress: Array<{
    agent: string;
    turn_id: string;
    kind: string;
    started_at: string;
  }> | null;
  reserved_calls: number;
  reserved_tokens: number;
  lane_owners: Array<{
    lane: string;
    owner: string;
    pid: number | null;
    epoch: number;
    expires_at: string;
  }> | null;
}

const toSessionQueue = (row: SessionRow, kind: Database['kind']): SessionQueueStatus => ({
  session_id: row.session_id,
  project_id: row.project_id,
  title: row.title,
  unanswered_messages: row.unanswered_messages,
  pending_kickoffs: row.pending_kickoffs ?? [],
  turns_in_progress: (row.turns_in_progress ?? []).map((turn) => ({
    ...turn,
    started_at: new Date(turn.started_at).toISOString(),
  })),
  reserved_calls: row.reserved_calls,
  reserved_tokens: Number(row.reserved_tokens),
  lane_owners:
    kind === 'pglite'
      ? null
      : (row.lane_owners ?? []).map((lease) => ({
          ...lease,
          epoch: Number(lease.epoch),
          expires_at: new Date(lease.expires_at).toISOString(),
        })),
});

/**
 * Per session, from the log: a lane's turn is in progress from its last `turn.started` until an event of that
 * turn ends it (`turnEndsSql`, the conversation fold's rule, as at start-up; in logs from before turn ids, the
 * agent's response without tool calls); a message to an agent waits while it is newer than the
 * agent's last `turn.started`; an agent's first activation by a handoff owes a kickoff until the agent's first
 * turn after it.
 */
const SESSION_QUEUES = `
  with starts as (
    select session_id, seq, created_at, payload->>'agent' as agent, payload->>'turn_id' as turn_id,
           payload->>'kind' as kind
    from session_events where type = 'turn.started'
  ),
  last_starts as (
    select distinct on (session_id, agent) session_id, agent, seq, created_at, turn_id, kind
    from starts order by session_id, agent, seq desc
  ),
  open_turns as (
    select l.session_id,
           jsonb_agg(jsonb_build_object('agent', l.agent, 'turn_id', l.turn_id, 'kind', l.kind,
                                        'started_at', l.created_at) order by l.seq) as turns
    from last_starts l
    where not exists (
      select 1 from session_events closed
      where closed.session_id = l.session_id and closed.seq > l.seq
        and (closed.payload->>'turn_id' = l.turn_id
             or (closed.type = 'agent.response' and not closed.payload ? 'turn_id' and closed.payload->>'agent' = l.agent))
        and ${turnEndsSql('closed')}
    )
    group by l.session_id
  ),
  unanswered as (
    select m.session_id, count(*)::int as messages
    from session_events m
    left join last_starts l on l.session_id = m.session_id and l.agent = m.payload->>'to'
    where m.type = 'chat.message' and m.payload ? 'to' and m.seq > coalesce(l.seq, 0)
    group by m.session_id
  ),
  first_activations as (
    select distinct on (session_id, payload->>'agent') session_id, seq, payload->>'agent' as agent,
           payload->>'handoff_id' as handoff_id
    from session_events where type = 'agent.activated'
    order by session_id, payload->>'agent', seq
  ),
  kickoffs as (
    select a.session_id, array_agg(a.agent order by a.seq) as agents
    from first_activations a
    left join last_starts l on l.session_id = a.session_id and l.agent = a.agent
    where a.handoff_id is not null and coalesce(l.seq, 0) < a.seq
    group by a.session_id
  ),
  reservations as (
    select session_id, count(*)::int as calls, sum(reserved_tokens)::float8 as tokens
    from token_usage where outcome = 'reserved' and session_id is not null
    group by session_id
  ),
  leases as (
    select l.session_id,
           jsonb_agg(jsonb_build_object('lane', l.lane, 'owner', l.owner, 'pid', p.pid, 'epoch', l.epoch,
                                        'expires_at', l.expires_at) order by l.lane) as owners
    from forja_lane_leases l left join forja_processes p on p.id = l.owner
    where l.owner is not null and l.expires_at > now()
    group by l.session_id
  )
  select s.id as session_id, s.project_id, s.title,
         coalesce(u.messages, 0) as unanswered_messages, k.agents as pending_kickoffs, o.turns as turns_in_progress,
         coalesce(r.calls, 0) as reserved_calls, coalesce(r.tokens, 0) as reserved_tokens,
         le.owners as lane_owners
  from sessions s
  left join unanswered u on u.session_id = s.id
  left join kickoffs k on k.session_id = s.id
  left join open_turns o on o.session_id = s.id
  left join reservations r on r.session_id = s.id
  left join leases le on le.session_id = s.id
  where u.session_id is not null or k.session_id is not null or o.session_id is not null or r.session_id is not null
     or le.session_id is not null
  order by s.created_at, s.id`;
