import type { Logger } from 'pino';
import {
  drainOutbox,
  type Database,
  type DrainReport,
  type OutboxHandlerResult,
  type OutboxRow,
  type Queryable,
} from '../../store/index.ts';
import { loadProjectedEventsById } from '../projection/load-projected-events.ts';
import { createOutboxWorker, type OutboxWorker } from '../workers/outbox-worker.ts';
import { chunkFragments, type ChunkingOutcome } from './chunk-fragments.ts';
import type { Embedder } from './embedder.ts';
import { fragmentOfEvent } from './fragments-of-event.ts';
import type { ProjectFragment } from './project-fragment.ts';
import { RAG_INDEX_AGGREGATE } from './rag-index-rule.ts';
import type { VectorIndex } from './vector-index.ts';

export const DEFAULT_RAG_INDEXER_INTERVAL_MS = 2000;
export const DEFAULT_RAG_INDEXER_BATCH_SIZE = 50;

export interface RagIndexerOptions {
  database: Database;
  embedder: Embedder;
  index: VectorIndex;
  logger: Pick<Logger, 'warn' | 'error'>;
  intervalMs?: number;
  batchSize?: number;
  /** A drain's transaction takes no further row after this long (PGlite: it holds the event loop). */
  timeBudgetMs?: number;
}

export type RagIndexer = OutboxWorker;

/**
 * Keeps the RAG index up with the log through the `rag_index` outbox rows. Embedding may call a provider
 * (metered, with a transaction of its own), so a cycle embeds the pending rows first, outside any
 * transaction, then drains them writing the prepared chunks with each row. A project whose embedding failed
 * fails only its rows (retried after a backoff); rows that arrived after the embedding wait for the next cycle.
 */
export function createRagIndexer(options: RagIndexerOptions): RagIndexer {
  const batchSize = options.batchSize ?? DEFAULT_RAG_INDEXER_BATCH_SIZE;
  /** Chunks embedded by the last cycle for rows its time budget left pending: not embedded twice. */
  let embeddedAhead = new Map<string, ChunkingOutcome>();

  async function prepare(): Promise<Map<string, ChunkingOutcome>> {
    const pending = await options.database.query<{ event_id: string }>(
      `select event_id from outbox where aggregate_type = $1 and processed_at is null and available_at <= now() and event_id is not null order by id limit $2`,
      [RAG_INDEX_AGGREGATE, batchSize],
    );
    const prepared = new Map<string, ChunkingOutcome>();
    const toEmbed: string[] = [];
    for (const { event_id: eventId } of pending.rows) {
      const ahead = embeddedAhead.get(eventId);
      if (ahead === undefined) toEmbed.push(eventId);
      else prepared.set(eventId, ahead);
    }
    const events = await loadProjectedEventsById(options.database, toEmbed);
    const byProject = new Map<string, ProjectFragment[]>();
    for (const event of events) {
      const fragment = fragmentOfEvent(event);
      if (fragment === null) prepared.set(event.id, { ok: true, chunks: [] });
      else byProject.set(event.project_id, [...(byProject.get(event.project_id) ?? []), fragment]);
    }
    for (const [projectId, fragments] of byProject) {
      const outcome = await chunkFragments(options.embedder, projectId, fragments).catch(
        (error: unknown) => ({
          ok: false as const,
          reason: error instanceof Error ? error.message : String(error),
        }),
      );
      for (const fragment of fragments) {
        prepared.set(
          fragment.sourceId,
          outcome.ok
            ? {
                ok: true,
                chunks: outcome.chunks.filter((chunk) => chunk.sourceId === fragment.sourceId),
              }
            : outcome,
        );
      }
    }
    return prepared;
  }

  async function runCycle(stopping: () => boolean): Promise<DrainReport> {
    const prepared = await prepare();
    // A macrotask between embedding and the drain's transaction: on PGlite neither yields by itself.
    await new Promise((resolve) => setImmediate(resolve));
    embeddedAhead = new Map([...prepared].filter(([, outcome]) => outcome.ok));
    const handle = async (row: OutboxRow, transaction: Queryable): Promise<OutboxHandlerResult> => {
      if (stopping()) return { outcome: 'stop_cycle', reason: 'the RAG indexer is stopping' };
      if (row.event_id === null) return { outcome: 'processed' };
      const outcome = prepared.get(row.event_id);
      if (outcome === undefined)
        return {
          outcome: 'stop_cycle',
          reason: 'rows arrived after this cycle embedded its batch; the next cycle takes them',
        };
      if (!outcome.ok) throw new Error(`embedding failed: ${outcome.reason}`);
      await options.index.upsert(outcome.chunks, transaction);
      return { outcome: 'processed' };
    };
    return drainOutbox(options.database, {
      aggregateTypes: [RAG_INDEX_AGGREGATE],
      batchSize,
      handle,
      ...(options.timeBudgetMs === undefined ? {} : { timeBudgetMs: options.timeBudgetMs }),
    });
  }

  return createOutboxWorker({
    intervalMs: options.intervalMs ?? DEFAULT_RAG_INDEXER_INTERVAL_MS,
    batchSize,
    runCycle,
    onReport: (report) => {
      if (report.failed > 0)
        options.logger.warn(
          { failed: report.failed },
          'RAG indexing failed for some rows; they are retried after a backoff',
        );
    },
    onError: (error) => options.logger.error({ err: error }, 'RAG indexing cycle failed'),
  });
}
