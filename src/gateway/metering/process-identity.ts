import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database, ProcessModel, Queryable } from '../../store/index.ts';
import { MONEY_RESERVATION_AS_SPENT } from './settle-call.ts';

/** The error an interrupted reservation is settled with: the call never ended, its process did. */
export const interruptedCallError = 'interrupted (the process making the call stopped during it)';

/** How often a server process beats `last_seen`, and after how long without a beat it counts as dead. */
export const DEFAULT_HEARTBEAT_MS = 5_000;
export const DEFAULT_STALE_AFTER_MS = Math.max(DEFAULT_HEARTBEAT_MS * 4, 15_000);

export interface ProcessIdentity {
  /** This process's row in `forja_processes`; model calls carry it on their reservations. */
  readonly id: string;
  /** Settles the reservations of processes that stopped beating (run on every heartbeat, and at start). */
  sweep(): Promise<number>;
  /**
   * Settles as interrupted the open reservations another process made for a lane this process now holds
   * (ADR 0130): the lease they belonged to is gone, so they are settled at once, not when that process's
   * heartbeat goes stale. Call it only while holding the lane's lease.
   */
  settleLane(sessionId: string, lane: string): Promise<number>;
  /** Stops the heartbeat, settles what this process left open and removes its row. */
  close(): Promise<void>;
}

export interface ProcessIdentityOptions {
  /** How often `last_seen` is renewed (server only). */
  heartbeatMs?: number;
  /** A process whose `last_seen` is older than this is dead; its reservations are settled (server only). */
  staleAfterMs?: number;
  onError?: (error: unknown) => void;
  pid?: number;
  /** Which model each agent kind of this process uses, for `forja status` (migration 0018). */
  models?: readonly ProcessModel[];
}

const settleInterrupted = (where: string) => `
  update token_usage set outcome = 'interrupted', input_tokens = coalesce(input_estimate, reserved_tokens),
    output_tokens = streamed_output_tokens, reserved_tokens = 0, estimated = true, error = $1, settled_at = now(),
    ${MONEY_RESERVATION_AS_SPENT}
  where outcome = 'reserved' and (${where}) returning id`;

/**
 * Ties reservations to a living process (ADR 0130). On PGlite the process owns the data directory, so every
 * reservation still open at start-up belongs to a process that died: all are settled at once. On a server
 * several processes share the table: each beats its `last_seen`, and any of them settles the reservations of
 * a process that stopped beating (or of none known), never those of a live one.
 */
export async function startProcessIdentity(
  database: Database,
  options: ProcessIdentityOptions = {},
): Promise<ProcessIdentity> {
  const id = randomUUID();
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const staleAfterMs = options.staleAfterMs ?? Math.max(heartbeatMs * 4, 15_000);
  const models = JSON.stringify(options.models ?? []);
  await database.query(
    'insert into forja_processes (id, pid, host, models) values ($1, $2, $3, $4::jsonb)',
    [id, options.pid ?? process.pid, hostname(), models],
  );

  async function sweep(): Promise<number> {
    if (database.kind === 'pglite') {
      const settled = await database.query(settleInterrupted('process_id is distinct from $2'), [
        interruptedCallError,
        id,
      ]);
      await database.query('delete from forja_processes where id <> $1', [id]);
      return settled.rows.length;
    }
    return database.transaction(async (transaction) => {
      const dead = `process_id in (select p.id from forja_processes p where p.last_seen < now() - make_interval(secs => $2::double precision / 1000))
        or (process_id is not null and process_id not in (select p.id from forja_processes p))
        or (process_id is null and created_at < now() - make_interval(mins => 30))`;
      const settled = await transaction.query(settleInterrupted(dead), [
        interruptedCallError,
        staleAfterMs,
      ]);
      await transaction.query(
        'delete from forja_processes where last_seen < now() - make_interval(secs => $1::double precision / 1000)',
        [staleAfterMs],
      );
      return settled.rows.length;
    });
  }

  await sweep();
  let beating: Promise<unknown> = Promise.resolve();
  const timer =
    database.kind === 'postgres'
      ? setInterval(() => {
          beating = beating
            .then(() =>
              // An upsert: a process whose row was swept after a stall comes back, or other processes would
              // take every lane it leases as a dead process's (ADR 0170).
              database.query(
                `insert into forja_processes (id, pid, host, models) values ($1, $2, $3, $4::jsonb)
                 on conflict (id) do update set last_seen = now()`,
                [id, options.pid ?? process.pid, hostname(), models],
              ),
            )
            .then(() => sweep())
            .catch((error: unknown) => options.onError?.(error));
        }, heartbeatMs)
      : null;
  timer?.unref();

  return {
    id,
    sweep,
    async settleLane(sessionId, lane) {
      const settled = await database.query(
        settleInterrupted(
          'session_id = $2 and (agent = $3 or on_behalf_of = $3) and process_id is distinct from $4',
        ),
        [interruptedCallError, sessionId, lane, id],
      );
      return settled.rows.length;
    },
    async close() {
      if (timer) clearInterval(timer);
      await beating;
      await settleOwn(database, id);
      // A clean stop leaves its row among the clean exits (the newest few), so `forja status` tells it from a crash.
      await database.transaction(async (transaction) => {
        await transaction.query(
          `with gone as (delete from forja_processes where id = $1 returning id, pid, host, started_at)
           insert into forja_process_exits (id, pid, host, started_at) select id, pid, host, started_at from gone`,
          [id],
        );
        await transaction.query(
          'delete from forja_process_exits where id not in (select id from forja_process_exits order by stopped_at desc, id limit $1)',
          [KEPT_CLEAN_EXITS],
        );
      });
    },
  };
}

/** How many clean exits `forja_process_exits` keeps. */
const KEPT_CLEAN_EXITS = 20;

async function settleOwn(database: Queryable, id: string): Promise<void> {
  await database.query(settleInterrupted('process_id = $2'), [interruptedCallError, id]);
}
