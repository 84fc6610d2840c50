import type { Logger } from 'pino';
import {
  createEmbeddingGateway,
  createEmbeddingProviderFromConfig,
  readPrices,
} from '../gateway/index.ts';
import type { Database, Queryable } from '../store/index.ts';
import type { GraphStore } from './graph/graph-store.ts';
import { GraphUnavailableError } from './graph/graph-unavailable-error.ts';
import { createPostgresGraphStore } from './graph/postgres-graph-store.ts';
import { createGraphProjector, type GraphProjector } from './projection/graph-projector.ts';
import { queryUserContext, type UserContext } from './projection/query-user-context.ts';
import type { Embedder } from './rag/embedder.ts';
import { createGatewayEmbedder } from './rag/gateway-embedder.ts';
import { createLocalEmbedder } from './rag/hashed-ngram-embedder.ts';
import { createPostgresVectorIndex } from './rag/postgres-vector-index.ts';
import type { ProjectRagSearch } from './rag/compose-triage-with-rag.ts';
import { createRagIndexer, type RagIndexer } from './rag/rag-indexer.ts';
import { ragSearch, type RagSearchRequest, type RagSearchResult } from './rag/rag-search.ts';
import type { VectorIndex } from './rag/vector-index.ts';
import { wakeOnAppends } from './workers/wake-on-appends.ts';
import { readCurrentTemplate, type PromptTemplate } from './templates/template-store.ts';

export interface MemoryOptions {
  database: Database;
  logger: Logger;
  env: Readonly<Record<string, string | undefined>>;
  /** Poll interval of the graph projector and the RAG indexer (default ~2 s). */
  intervalMs?: number;
  /** `exact` forces the exact vector search even where pgvector exists. */
  vectorSearch?: 'auto' | 'exact';
  /** Replaces the configured embedder (tests). */
  embedder?: Embedder;
}

/** The relational memory, wired: what the composition root, the routes and the companions use. */
export interface Memory {
  /** The graph on a transaction (the projector's writes commit with their outbox row) or on the database. */
  graphFor(queryable: Queryable): GraphStore;
  readTemplate(name: string): Promise<PromptTemplate | null>;
  embedder: Embedder;
  vectorIndex: VectorIndex;
  ragSearch(projectId: string, request: RagSearchRequest): Promise<RagSearchResult>;
  ragSearchFor(projectId: string): ProjectRagSearch;
  /** `query_user_context`; an unavailable graph is an expected outcome. */
  userContext(
    projectId: string,
  ): Promise<{ ok: true; context: UserContext } | { ok: false; reason: string }>;
  projector: GraphProjector;
  indexer: RagIndexer;
  /** Starts the projector and the indexer (what `forja serve` runs). */
  start(): void;
  /** This process committed an append: the started workers drain now, before its NOTIFY comes back. */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * Wires the memory area: the graph on Forja's PostgreSQL, the GraphProjector and the RAG indexer over the
 * outbox, the embedder (provider embeddings through the gateway when `FORJA_EMBEDDING_MODEL` is set, else
 * the local one) and the vector index (HNSW where pgvector exists, exact otherwise).
 */
/** Outbox rows per worker transaction: short on PGlite (one connection), larger on a server. */
const PGLITE_WORKER_BATCH_SIZE = 10;
const SERVER_WORKER_BATCH_SIZE = 100;
/** On PGlite a drain's transaction takes no further row after this long: appends wait no longer (ADR 0181, 0215). */
const PGLITE_WORKER_TIME_BUDGET_MS = 8;

export async function createMemory(options: MemoryOptions): Promise<Memory> {
  const { database, logger } = options;
  const graphFor = (queryable: Queryable) => createPostgresGraphStore(queryable);
  const embedder = options.embedder ?? configuredEmbedder(options);
  const vectorIndex = await createPostgresVectorIndex(database, {
    method: options.vectorSearch ?? 'auto',
  });
  const search = (projectId: string, request: RagSearchRequest) =>
    ragSearch({ embedder, index: vectorIndex }, projectId, request);
  // On PGlite a transaction holds the only connection (and, in-process, the event loop; `forja serve` runs PGlite
  // on a worker thread, ADR 0215): small batches, each its own transaction, keep appends and requests moving.
  const batchSize =
    database.kind === 'pglite' ? PGLITE_WORKER_BATCH_SIZE : SERVER_WORKER_BATCH_SIZE;
  const intervals = {
    ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }),
    ...(database.kind === 'pglite' ? { timeBudgetMs: PGLITE_WORKER_TIME_BUDGET_MS } : {}),
  };
  // The workers' statements run where they never queue ahead of a message's: a pool of their own on the
  // server, the foreground's leftovers on PGlite's one connection (ADR 0427).
  const drains = database.background ?? database;
  const projector = createGraphProjector({
    database: drains,
    graphFor,
    logger,
    batchSize,
    ...intervals,
  });
  const indexer = createRagIndexer({
    database: drains,
    embedder,
    index: vectorIndex,
    logger,
    batchSize,
    ...intervals,
  });
  let listening: Promise<(() => Promise<void>) | null> | null = null;
  logger.debug(
    { embedder: embedder.name, vector_search: vectorIndex.method },
    'relational memory ready',
  );
  return {
    graphFor,
    readTemplate: (name) => readCurrentTemplate(graphFor(database), name),
    embedder,
    vectorIndex,
    ragSearch: search,
    ragSearchFor: (projectId) => (request) => search(projectId, request),
    userContext: async (projectId) => {
      try {
        return { ok: true, context: await queryUserContext(graphFor(database), projectId) };
      } catch (error) {
        if (error instanceof GraphUnavailableError) return { ok: false, reason: error.message };
        throw error;
      }
    },
    projector,
    indexer,
    start: () => {
      projector.start();
      indexer.start();
      // Every append notifies on commit; the workers drain at once instead of at their next poll.
      listening ??= wakeOnAppends(drains, [projector, indexer], logger);
    },
    wake: () => {
      projector.wake();
      indexer.wake();
    },
    stop: async () => {
      const unlisten = await listening;
      listening = null;
      await unlisten?.();
      await Promise.all([projector.stop(), indexer.stop()]);
    },
  };
}

function configuredEmbedder(options: MemoryOptions): Embedder {
  const configured = createEmbeddingProviderFromConfig(options.env);
  if (!configured.ok) {
    options.logger.warn(`${configured.message} Using the local embedder.`);
    return createLocalEmbedder();
  }
  if (configured.provider === null) return createLocalEmbedder();
  // FORJA_PRICES was checked at start-up; embeddings count against a money budget at the same prices as turns.
  const prices = readPrices(options.env);
  return createGatewayEmbedder(
    createEmbeddingGateway({
      database: options.database,
      provider: configured.provider,
      ...(prices.ok ? { prices: prices.table } : {}),
    }),
  );
}
