import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  createLocalEmbedder,
  createPostgresVectorIndex,
  DEFAULT_EF_SEARCH,
  embedLocally,
  LOCAL_EMBEDDER_NAME,
  ragSearch,
  type IndexedChunk,
  type VectorIndex,
} from '../../src/memory/index.ts';
import { openPgliteDatabase, type PgliteDatabase } from '../../src/store/pglite-database.ts';
import { createProject, openDatabase, type Database } from '../../src/store/index.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { percentile, round, timeInterleaved } from '../lib/latency.ts';
import { openBenchServer } from '../lib/bench-databases.ts';
import { syntheticCorpus } from './synthetic-corpus.ts';

const CHUNKS = Number(process.env.FORJA_BENCH_RAG_CHUNKS ?? 100_000);
/**
 * The engines measured: `pglite`, `server`, or both (the default; comma-separated). `server` alone skips the
 * PGlite load and HNSW build (≈330 s), for iterating on the search without pgvector.
 */
const ENGINES = benchEngines(process.env.FORJA_BENCH_RAG_ENGINES);
const HNSW_QUERIES = 200;
/** HNSW candidates per search: recall against latency. */
const EF_SEARCH_SWEEP = [40, 100, 200, 400];
const PGVECTOR_SCAN_QUERIES = 20;
const EXACT_SQL_QUERIES_PGLITE = 1;
const EXACT_SQL_QUERIES_SERVER = 3;
const K = 10;
const LOAD_BATCH = 5000;

/**
 * `rag_search` at 100,000 chunks of one project: latency and recall@10 of the HNSW search (pgvector, PGlite)
 * against the exact answer, beside the exact searches — Forja's portable SQL over `real[]` (PGlite and the
 * server, which has no pgvector here) and pgvector's own sequential scan. The exact answer is computed in JS.
 * The search the tool runs, the hybrid `rag_search`, is measured as production runs it — PGlite on disk on its
 * worker thread, opened by `openDatabase` — beside the server and PGlite in memory on this thread, interleaved.
 */
export async function run(): Promise<BenchReport> {
  const rows: BenchReport['rows'] = [];
  const notes: string[] = [];
  const benchStarted = performance.now();
  const started = performance.now();
  const corpus = syntheticCorpus({ chunks: CHUNKS, queries: HNSW_QUERIES });
  const vectors = corpus.chunks.map((text) => embedLocally(text));
  const queryVectors = corpus.queries.map((text) => embedLocally(text));
  notes.push(
    `${CHUNKS} synthetic chunks (400 topics, 40 words each) embedded with the local ${LOCAL_EMBEDDER_NAME} embedder in ${round((performance.now() - started) / 1000, 1)} s — real embedding, not generated vectors.`,
  );
  const truth = queryVectors.map((query) => exactTopK(vectors, query, K));

  // The server loads on its own process while PGlite loads and builds its index on its worker thread.
  const serverLoading = (async () => {
    if (!ENGINES.has('server')) return { unavailable: 'not asked (FORJA_BENCH_RAG_ENGINES)' };
    const server = await openBenchServer();
    if ('unavailable' in server) return server;
    return {
      server,
      projectId: await loadChunks(server.database, corpus.chunks, vectors, false, notes, SERVER),
    };
  })();

  // Each engine the interleaved hybrid rows compare: its database, project and the index rag_search uses there.
  const compared: Compared[] = [];
  const closing: Array<() => Promise<void>> = [];
  if (ENGINES.has('pglite')) {
    // Production: `openDatabase` on a data directory (a copy of the template, PGlite on its worker thread, the
    // migrations, production's shared_buffers); loaded once, then dumped into the in-memory engine as it ran here.
    const directory = mkdtempSync(join(tmpdir(), 'forja-rag-bench-'));
    const production = (await openDatabase({ dataDirectory: directory })) as PgliteDatabase;
    closing.push(async () => {
      await production.close();
      rmSync(directory, { recursive: true, force: true });
    });
    const projectId = await loadChunks(production, corpus.chunks, vectors, true, notes, PRODUCTION);
    let dumping = performance.now();
    const memory = await openPgliteDatabase({
      loadDataDir: await production.dumpDataDirectory(),
      sharedBuffers: '128MB',
    });
    closing.push(() => memory.close());
    notes.push(
      `${MEMORY}: the same data directory, dumped and loaded into memory in ${round((performance.now() - dumping) / 1000, 1)} s, with PostgreSQL's default shared_buffers (128MB), as this benchmark ran before ADR 0429.`,
    );
    dumping = 0;
    compared.push(
      { engine: PRODUCTION, database: production, projectId },
      { engine: MEMORY, database: memory, projectId },
    );
    rows.push(
      ...(await measureVectorSweep(memory, projectId, corpus.queries, queryVectors, truth)),
    );
  } else notes.push('PGlite not measured: FORJA_BENCH_RAG_ENGINES asked for the server only.');

  const loaded = await serverLoading;
  if ('unavailable' in loaded) notes.push(`PostgreSQL server not measured: ${loaded.unavailable}`);
  else {
    closing.push(() => loaded.server.dispose());
    compared.push({
      engine: SERVER,
      database: loaded.server.database,
      projectId: loaded.projectId,
    });
    const index = await createPostgresVectorIndex(loaded.server.database);
    notes.push(
      index.method === 'hnsw'
        ? 'The PostgreSQL server here has pgvector: rag_search uses HNSW on it.'
        : 'The PostgreSQL server here has no pgvector extension, so rag_search uses the signature search (lsh) on it.',
    );
    rows.push(
      await measure(
        SERVER,
        'exact SQL over real[] (baseline)',
        await createPostgresVectorIndex(loaded.server.database, { method: 'exact' }),
        loaded.projectId,
        corpus.queries,
        truth,
        EXACT_SQL_QUERIES_SERVER,
      ),
    );
  }
  rows.push(...(await measureInterleaved(compared, corpus.queries, truth)));
  for (const close of closing) await close();
  notes.push(
    `Engines measured: ${[...ENGINES].join(', ')} (FORJA_BENCH_RAG_ENGINES: pglite, server or both, the default; server alone skips the PGlite load and HNSW build, for iterating on the search without pgvector).`,
  );
  notes.push(`Whole benchmark: ${round((performance.now() - benchStarted) / 1000, 1)} s.`);
  notes.push(
    `Latency of a vector search = query embedding + the index's SQL; recall@10 = share of the exact top 10 (by cosine, computed in JS) it returned. Goals: HNSW recall ≥ 0.95, p50 ≤ 20 ms; without pgvector (lsh) recall ≥ 0.95, p50 ≤ 200 ms. The ef_search sweep, pgvector's scan, lsh and the exact SQL run on ${MEMORY}, one after the other.`,
  );
  notes.push(
    `Interleaved rows (one query of each engine and kind per round, ${HNSW_QUERIES} each): "hybrid rag_search" is the whole search the tool runs (full-text + vector, fused by rank; latency only: its top 10 is not the vector truth), "vector part" the index's search alone with the method rag_search uses on that engine. ${PRODUCTION} is the figure to read for \`forja serve\`.`,
  );
  notes.push(
    `The exact SQL paths are measured on ${EXACT_SQL_QUERIES_PGLITE} (PGlite) and ${EXACT_SQL_QUERIES_SERVER} (server) queries only: each scores every chunk of the project.`,
  );
  return { name: 'rag-search', rows, notes };
}

const PRODUCTION = 'pglite (disk, worker thread: production)';
const MEMORY = 'pglite (memory, main thread)';
const SERVER = 'postgres server';

interface Compared {
  engine: string;
  database: Database;
  projectId: string;
}

/** The vector search alone on the in-memory engine, as before: HNSW's ef_search, pgvector's scan, lsh, exact SQL. */
async function measureVectorSweep(
  database: Database,
  projectId: string,
  queries: string[],
  queryVectors: number[][],
  truth: number[][],
): Promise<BenchReport['rows']> {
  const rows: BenchReport['rows'] = [];
  for (const efSearch of EF_SEARCH_SWEEP) {
    const hnsw = await createPostgresVectorIndex(database, { method: 'hnsw', efSearch });
    rows.push(
      await measure(
        MEMORY,
        `hnsw (pgvector, ef_search ${efSearch}${efSearch === DEFAULT_EF_SEARCH ? ', the default' : ''})`,
        hnsw,
        projectId,
        queries,
        truth,
        HNSW_QUERIES,
      ),
    );
  }
  rows.push(await measurePgvectorScan(database, projectId, queryVectors, truth));
  rows.push(
    await measure(
      MEMORY,
      'lsh (256-bit signatures + exact rerank, no extension)',
      await createPostgresVectorIndex(database, { method: 'lsh' }),
      projectId,
      queries,
      truth,
      HNSW_QUERIES,
    ),
  );
  rows.push(
    await measure(
      MEMORY,
      'exact SQL over real[] (portable path)',
      await createPostgresVectorIndex(database, { method: 'exact' }),
      projectId,
      queries,
      truth,
      EXACT_SQL_QUERIES_PGLITE,
    ),
  );
  return rows;
}

/**
 * The hybrid `rag_search` and its vector part on every engine, one query of each per round (so that machine
 * noise falls on all alike), each engine with the index `rag_search` picks there.
 */
async function measureInterleaved(
  compared: readonly Compared[],
  queries: string[],
  truth: number[][],
): Promise<BenchReport['rows']> {
  const embedder = createLocalEmbedder();
  const operations: Record<string, () => Promise<unknown>> = {};
  const iterations: Record<string, number> = {};
  const found: Record<string, number> = {};
  const methods: Record<string, string> = {};
  for (const { engine, database, projectId } of compared) {
    const index = await createPostgresVectorIndex(database);
    methods[engine] = index.method;
    let hybridQuery = 0;
    let vectorQuery = 0;
    found[engine] = 0;
    operations[`${engine}|hybrid`] = async () => {
      const result = await ragSearch({ embedder, index }, projectId, {
        query: queries[hybridQuery++ % queries.length]!,
        k: K,
      });
      if (result.degraded) throw new Error(`degraded: ${result.reason}`);
    };
    operations[`${engine}|vector`] = async () => {
      const query = vectorQuery++ % queries.length;
      const embedded = await embedder.embed([queries[query]!], { projectId });
      if (!embedded.ok) throw new Error(`embedder failed: ${embedded.reason}`);
      const hits = await index.search({
        projectId,
        embedder: embedder.name,
        vector: embedded.vectors[0]!,
        k: K,
      });
      // The warm-up's queries are not counted: recall is over the measured ones, from the first query again.
      if (vectorQuery > Math.ceil(HNSW_QUERIES / 10))
        found[engine]! += recall(
          hits.map((hit) => Number(hit.source_id.slice('chunk-'.length))),
          truth[query]!,
        );
    };
    iterations[`${engine}|hybrid`] = HNSW_QUERIES;
    iterations[`${engine}|vector`] = HNSW_QUERIES;
  }
  const durations = await timeInterleaved(operations, iterations);
  return compared.flatMap(({ engine }) => [
    {
      engine,
      method: `hybrid rag_search (fts + ${methods[engine]}), interleaved`,
      queries: HNSW_QUERIES,
      p50_ms: round(percentile(durations[`${engine}|hybrid`]!, 50), 2),
      p99_ms: round(percentile(durations[`${engine}|hybrid`]!, 99), 2),
      recall_at_10: '',
    },
    {
      engine,
      method: `vector part (${methods[engine]}), interleaved`,
      queries: HNSW_QUERIES,
      p50_ms: round(percentile(durations[`${engine}|vector`]!, 50), 2),
      p99_ms: round(percentile(durations[`${engine}|vector`]!, 99), 2),
      recall_at_10: round(found[engine]! / HNSW_QUERIES, 4),
    },
  ]);
}

function benchEngines(asked: string | undefined): Set<'pglite' | 'server'> {
  const words = (asked ?? 'pglite,server')
    .split(',')
    .map((word) => word.trim())
    .filter(Boolean);
  const engines = new Set<'pglite' | 'server'>();
  for (const word of words) {
    if (word !== 'pglite' && word !== 'server')
      throw new Error(`FORJA_BENCH_RAG_ENGINES: unknown engine ${word} (pglite, server)`);
    engines.add(word);
  }
  return engines;
}

/** Loads the corpus into a new project through the index adapter (then builds HNSW when asked); its id. */
export async function loadChunks(
  database: Database,
  texts: string[],
  vectors: number[][],
  withHnsw: boolean,
  notes: string[],
  engine: string,
): Promise<string> {
  const project = await createProject(database, { name: 'bench' });
  const index = await createPostgresVectorIndex(database, { method: 'exact' });
  // Building the HNSW index once over loaded rows is much faster than growing it row by row.
  if (withHnsw) await database.query('drop index if exists rag.rag_chunks_hnsw');
  let started = performance.now();
  for (let at = 0; at < texts.length; at += LOAD_BATCH) {
    const batch: IndexedChunk[] = texts.slice(at, at + LOAD_BATCH).map((text, offset) => ({
      id: `chunk-${at + offset}#0`,
      projectId: project.id,
      sourceKind: 'artifact',
      sourceId: `chunk-${at + offset}`,
      sourceLabel: `artifact.bench #${at + offset}`,
      chunkIndex: 0,
      text,
      embedder: LOCAL_EMBEDDER_NAME,
      embedding: vectors[at + offset]!,
    }));
    await index.upsert(batch);
  }
  const loadSeconds = (performance.now() - started) / 1000;
  let buildNote = '';
  if (withHnsw) {
    started = performance.now();
    await database.execute(
      `set maintenance_work_mem = '512MB'; create index rag_chunks_hnsw on rag.chunks using hnsw (embedding_vector vector_cosine_ops);`,
    );
    buildNote = `, HNSW index built in ${round((performance.now() - started) / 1000, 1)} s (m 16, ef_construction 64)`;
  }
  // The signature table too: the server here runs no autovacuum, and without statistics it is planned as small.
  await database.execute('analyze rag.chunks, rag.chunk_signatures');
  notes.push(
    `${engine}: ${texts.length} chunks loaded through the index adapter in ${round(loadSeconds, 1)} s${buildNote}.`,
  );
  return project.id;
}

/** The vector part of `rag_search` (query embedding + the index's vector search): its recall is against the exact top 10. */
async function measure(
  engine: string,
  method: string,
  index: VectorIndex,
  projectId: string,
  queries: string[],
  truth: number[][],
  count: number,
) {
  const embedder = createLocalEmbedder();
  const durations: number[] = [];
  let found = 0;
  for (let query = 0; query < count; query += 1) {
    const started = performance.now();
    const embedded = await embedder.embed([queries[query]!], { projectId });
    if (!embedded.ok) throw new Error(`embedder failed: ${embedded.reason}`);
    const hits = await index.search({
      projectId,
      embedder: embedder.name,
      vector: embedded.vectors[0]!,
      k: K,
    });
    durations.push(performance.now() - started);
    found += recall(
      hits.map((hit) => Number(hit.source_id.slice('chunk-'.length))),
      truth[query]!,
    );
  }
  return {
    engine,
    method,
    queries: count,
    p50_ms: round(percentile(durations, 50), 2),
    p99_ms: round(percentile(durations, 99), 2),
    recall_at_10: round(found / count, 4),
  };
}

async function measurePgvectorScan(
  database: Database,
  projectId: string,
  queryVectors: number[][],
  truth: number[][],
) {
  const durations: number[] = [];
  let found = 0;
  for (let query = 0; query < PGVECTOR_SCAN_QUERIES; query += 1) {
    const started = performance.now();
    const rows = await database.transaction(async (transaction) => {
      await transaction.query("select set_config('enable_indexscan', 'off', true)");
      return (
        await transaction.query<{ source_id: string }>(
          'select source_id from rag.chunks where project_id = $1 order by embedding_vector <=> $2::vector limit $3',
          [projectId, `[${queryVectors[query]!.join(',')}]`, K],
        )
      ).rows;
    });
    durations.push(performance.now() - started);
    found += recall(
      rows.map((row) => Number(row.source_id.slice('chunk-'.length))),
      truth[query]!,
    );
  }
  return {
    engine: MEMORY,
    method: 'exact (pgvector sequential scan, reference)',
    queries: PGVECTOR_SCAN_QUERIES,
    p50_ms: round(percentile(durations, 50), 2),
    p99_ms: round(percentile(durations, 99), 2),
    recall_at_10: round(found / PGVECTOR_SCAN_QUERIES, 4),
  };
}

/** Indexes of the k vectors most similar to the query (unit vectors: dot product = cosine), ties by index. */
function exactTopK(vectors: readonly number[][], query: readonly number[], k: number): number[] {
  const best: Array<{ index: number; score: number }> = [];
  vectors.forEach((vector, index) => {
    let score = 0;
    for (let dimension = 0; dimension < vector.length; dimension += 1)
      score += vector[dimension]! * query[dimension]!;
    if (best.length < k || score > best[best.length - 1]!.score) {
      best.push({ index, score });
      best.sort((left, right) => right.score - left.score || left.index - right.index);
      if (best.length > k) best.pop();
    }
  });
  return best.map((entry) => entry.index);
}

function recall(found: number[], truth: number[]): number {
  const expected = new Set(truth);
  return found.filter((index) => expected.has(index)).length / truth.length;
}
