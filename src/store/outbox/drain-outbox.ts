import { performance } from 'node:perf_hooks';
import type { Database, Queryable } from '../database.ts';
import type { OutboxHandlerResult, OutboxRow } from './outbox-row.ts';

export interface DrainOptions {
  aggregateTypes: readonly string[];
  batchSize?: number;
  /**
   * Handles one row. Database work must go through `transaction`: the row lock and the handler's writes commit
   * together (and on PGlite the transaction holds the only connection).
   */
  handle: (row: OutboxRow, transaction: Queryable) => Promise<OutboxHandlerResult>;
  /** Delay before a failed row is tried again, by attempt number (1, 2, …). */
  retryDelayMs?: (attempts: number) => number;
  /**
   * Takes no further row once the transaction has run this long, or once other requests wait for the
   * connection (`Database.requestsWaiting`): it commits, and the rest of the batch waits for the next cycle
   * (`outOfTime` says so). On PGlite a transaction's queries run on the process's own
   * thread, so this bounds how long one drain holds the event loop (ADR 0181).
   */
  timeBudgetMs?: number;
}

export interface DrainReport {
  processed: number;
  failed: number;
  stopped: { rowId: number; reason: string } | null;
  /** The time budget ended the batch before its last row: more rows may be pending. */
  outOfTime?: true;
}

const DEFAULT_BATCH_SIZE = 100;
const MAX_RETRY_DELAY_MS = 5 * 60_000;

export function defaultRetryDelayMs(attempts: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, 1000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Drains one batch of pending outbox rows of the given aggregate types, oldest first. Rows are selected
 * `FOR UPDATE SKIP LOCKED`, so concurrent drainers share the work without waiting and never take the same
 * row twice. There is no cursor: a row that committed late (out of id order) is still pending and is taken
 * by the next cycle, so no committed row is ever skipped. Delivery is at least once.
 */
export async function drainOutbox(database: Database, options: DrainOptions): Promise<DrainReport> {
  // Derived work: on PGlite's worker thread it lets requests in flight go first (ADR 0245).
  return database.transaction(
    async (transaction) => {
      const startedAt = performance.now();
      const batch = await transaction.query<OutboxRowRecord>(SELECT_BATCH_SQL, [
        options.aggregateTypes,
        options.batchSize ?? DEFAULT_BATCH_SIZE,
      ]);
      const report: DrainReport = { processed: 0, failed: 0, stopped: null };
      for (const [index, record] of batch.rows.entries()) {
        // Out of time, or a request (a message's statement) waits for the one connection (ADR 0245).
        if (
          index > 0 &&
          ((options.timeBudgetMs !== undefined &&
            performance.now() - startedAt >= options.timeBudgetMs) ||
            database.requestsWaiting?.() === true)
        ) {
          report.outOfTime = true;
          break;
        }
        const row = toOutboxRow(record);
        await transaction.query('savepoint outbox_row');
        try {
          const result = await options.handle(row, transaction);
          if (result.outcome === 'stop_cycle') {
            await transaction.query('rollback to savepoint outbox_row');
            report.stopped = { rowId: row.id, reason: result.reason };
            break;
          }
          await transaction.query('update outbox set processed_at = now() where id = $1', [row.id]);
          await transaction.query('release savepoint outbox_row');
          report.processed += 1;
        } catch (error) {
          await transaction.query('rollback to savepoint outbox_row');
          const delayMs = (options.retryDelayMs ?? defaultRetryDelayMs)(row.attempts + 1);
          await transaction.query(
            `update outbox set attempts = attempts + 1, last_error = $2,
             available_at = now() + make_interval(secs => $3::double precision / 1000) where id = $1`,
            [row.id, describeError(error), delayMs],
          );
          report.failed += 1;
        }
      }
      return report;
    },
    { background: true },
  );
}

interface OutboxRowRecord extends Omit<OutboxRow, 'created_at'> {
  created_at: Date | string;
}

function toOutboxRow(record: OutboxRowRecord): OutboxRow {
  return {
    ...record,
    id: Number(record.id),
    created_at: new Date(record.created_at).toISOString(),
  };
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 2000);
}

const SELECT_BATCH_SQL = `
  select id, aggregate_type, aggregate_id, event_id, payload, attempts, created_at
  from outbox
  where processed_at is null and aggregate_type = any($1::text[]) and available_at <= now()
  order by id
  limit $2
  for update skip locked`;
