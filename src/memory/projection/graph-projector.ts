import type { Logger } from 'pino';
import {
  drainOutbox,
  type Database,
  type OutboxHandlerResult,
  type OutboxRow,
  type Queryable,
} from '../../store/index.ts';
import type { GraphStore } from '../graph/graph-store.ts';
import { GraphUnavailableError } from '../graph/graph-unavailable-error.ts';
import { createOutboxWorker, type OutboxWorker } from '../workers/outbox-worker.ts';
import { GRAPH_PROJECTION_AGGREGATE } from './graph-projection-rule.ts';
import { loadProjectedEvent } from './load-projected-events.ts';
import { projectEvent } from './project-event.ts';

/** ~2 s, as the record's projector (configurable). */
export const DEFAULT_PROJECTOR_INTERVAL_MS = 2000;
export const DEFAULT_PROJECTOR_BATCH_SIZE = 100;

export interface GraphProjectorOptions {
  database: Database;
  /** The graph to write an outbox row's effects to; given the drain's transaction so both commit together. */
  graphFor: (transaction: Queryable) => GraphStore;
  logger: Pick<Logger, 'warn' | 'debug' | 'error'>;
  intervalMs?: number;
  batchSize?: number;
  /** A drain's transaction takes no further row after this long (PGlite: it holds the event loop). */
  timeBudgetMs?: number;
}

export type GraphProjector = OutboxWorker;

/**
 * The GraphProjector (record ADR 0101): polls the `graph_projection` outbox rows and calls the idempotent write use
 * cases. A `GraphUnavailableError` stops the whole cycle — the rest of the batch is not attempted, the row
 * stays unprocessed, untouched, and the next cycle retries it. Any other failure fails only its row, which
 * is retried after a backoff (a bug in one event must not stop the graph).
 */
export function createGraphProjector(options: GraphProjectorOptions): GraphProjector {
  const batchSize = options.batchSize ?? DEFAULT_PROJECTOR_BATCH_SIZE;

  async function handle(
    row: OutboxRow,
    transaction: Queryable,
    stopping: () => boolean,
  ): Promise<OutboxHandlerResult> {
    if (stopping()) return { outcome: 'stop_cycle', reason: 'the projector is stopping' };
    if (row.event_id === null) return { outcome: 'processed' };
    const event = await loadProjectedEvent(transaction, row.event_id);
    if (event === null) {
      options.logger.warn(
        { outbox_id: row.id, event_id: row.event_id },
        'graph projection row names no event; skipped',
      );
      return { outcome: 'processed' };
    }
    try {
      const outcome = await projectEvent(options.graphFor(transaction), event);
      if (outcome.outcome === 'skipped')
        options.logger.warn(
          { event_id: event.id, reason: outcome.reason },
          'event not projected to the graph',
        );
      return { outcome: 'processed' };
    } catch (error) {
      if (error instanceof GraphUnavailableError)
        return { outcome: 'stop_cycle', reason: error.message };
      throw error;
    }
  }

  return createOutboxWorker({
    intervalMs: options.intervalMs ?? DEFAULT_PROJECTOR_INTERVAL_MS,
    batchSize,
    runCycle: (stopping) =>
      drainOutbox(options.database, {
        aggregateTypes: [GRAPH_PROJECTION_AGGREGATE],
        batchSize,
        handle: (row, transaction) => handle(row, transaction, stopping),
        ...(options.timeBudgetMs === undefined ? {} : { timeBudgetMs: options.timeBudgetMs }),
      }),
    onReport: (report, stopping) => {
      if (report.stopped !== null && !stopping)
        options.logger.warn(
          { reason: report.stopped.reason },
          'graph projection cycle stopped; retrying next cycle',
        );
    },
    onError: (error) => options.logger.error({ err: error }, 'graph projection cycle failed'),
  });
}
