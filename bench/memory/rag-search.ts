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
import { openPgliteDatabase } from '../../src/store/pglite-database.ts';
import { migrate } from '../../src/store/migrations/migrate.ts';
import { createProject, type Database } from '../../src/store/index.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { percentile, round } from '../lib/latency.ts';
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

  // The server loads on its own process while PGlite loads and builds its index on this one.
  const serverLoading = (async () => {
    if (!ENGINES.has('server')) return { unavailable: 'not asked (FORJA_BENCH_RAG_ENGINES)' };
    const server = await openBenchServer();
    if ('unavailable' in server) return server;
    return {
      server,
      projectId: await load(
        server.database,
        corpus.chunks,
        vectors,
        false,
        notes,
        'postgres server',
      ),
    };
  })();

  if (ENGINES.has('pglite')) {
    const pglite = await openPgliteDatabase();
    await migrate(pglite);
    const pgliteProject = await load(
      pglite,
      corpus.chunks,
      vectors,
      true,
      notes,
      'pglite (memory)',
    );
    for (const efSearch of EF_SEARCH_SWEEP) {
      const hnsw = await createPostgresVectorIndex(pglite, { method: 'hnsw', efSearch });
      rows.push(
        await measure(
          'pglite (memory)',
          `hnsw (pgvector, ef_search ${efSearch}${efSearch === DEFAULT_EF_SEARCH ? ', the default' : ''})`,
          hnsw,
          pgliteProject,
          corpus.queries,
          truth,
          HNSW_QUERIES,
        ),
      );
    }
    rows.push(
      await measureHybrid(
        'pglite (memory)',
        await createPostgresVectorIndex(pglite),
        pgliteProject,
        corpus.queries,
        HNSW_QUERIES,
      ),
    );
    rows.push(await measurePgvectorScan(pglite, pgliteProject, queryVectors, truth));
    rows.push(
      await measure(
        'pglite (memory)',
        'lsh (256-bit signatures + exact rerank, no extension)',
        await createPostgresVectorIndex(pglite, { method: 'lsh' }),
        pgliteProject,
        corpus.queries,
        truth,
        HNSW_QUERIES,
      ),
    );
    const exact = await createPostgresVectorIndex(pglite, { method: 'exact' });
    rows.push(
      await measure(
        'pglite (memory)',
        'exact SQL over real[] (portable path)',
        exact,
        pgliteProject,
        corpus.queries,
        truth,
        EXACT_SQL_QUERIES_PGLITE,
      ),
    );
    await pglite.close();
  } else notes.push('PGlite not measured: FORJA_BENCH_RAG_ENGINES asked for the server only.');

  const loaded = await serverLoading;
  if ('unavailable' in loaded) notes.push(`PostgreSQL server not measured: ${loaded.unavailable}`);
  else {
    const index = await createPostgresVectorIndex(loaded.server.database);
    notes.push(
      index.method === 'hnsw'
        ? 'The PostgreSQL server here has pgvector: rag_search uses HNSW on it.'
        : 'The PostgreSQL server here has no pgvector extension, so rag_search uses the signature search (lsh) on it.',
    );
    rows.push(
      await measure(
        'postgres server',
        `${index.method} (what rag_search uses here)`,
        index,
        loaded.projectId,
        corpus.queries,
        truth,
        HNSW_QUERIES,
      ),
    );
    rows.push(
      await measureHybrid('postgres server', index, loaded.projectId, corpus.queries, HNSW_QUERIES),
    );
    rows.push(
      await measure(
        'postgres server',
        'exact SQL over real[] (baseline)',
        await createPostgresVectorIndex(loaded.server.database, { method: 'exact' }),
        loaded.projectId,
        corpus.queries,
        truth,
        EXACT_SQL_QUERIES_SERVER,
      ),
    );
    await loaded.server.dispose();
  }
  notes.push(
    `Engines measured: ${[...ENGINES].join(', ')} (FORJA_BENCH_RAG_ENGINES: pglite, server or both, the default; server alone skips the PGlite load and HNSW build, for iterating on the search without pgvector).`,
  );
  notes.push(`Whole benchmark: ${round((performance.now() - benchStarted) / 1000, 1)} s.`);
  notes.push(
    'Latency is one vector search (query embedding + SQL); recall@10 = share of the exact top 10 (by cosine, computed in JS) it returned. Goals: HNSW recall ≥ 0.95, p50 ≤ 20 ms; without pgvector (lsh) recall ≥ 0.95, p50 ≤ 200 ms. The hybrid row is the whole rag_search (full-text + vector, fused by rank): latency only.',
  );
  notes.push(
    `The exact SQL paths are measured on ${EXACT_SQL_QUERIES_PGLITE} (PGlite) and ${EXACT_SQL_QUERIES_SERVER} (server) queries only: each scores every chunk of the project.`,
  );
  return { name: 'rag-search', rows, notes };
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

async function load(
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

/** The whole hybrid `rag_search` (full-text + vector, fused): latency only, its top 10 is not the vector truth. */
async function measureHybrid(
  engine: string,
  index: VectorIndex,
  projectId: string,
  queries: string[],
  count: number,
) {
  const embedder = createLocalEmbedder();
  const durations: number[] = [];
  for (let query = 0; query < count; query += 1) {
    const started = performance.now();
    const result = await ragSearch({ embedder, index }, projectId, {
      query: queries[query]!,
      k: K,
    });
    durations.push(performance.now() - started);
    if (result.degraded) throw new Error(`degraded: ${result.reason}`);
  }
  return {
    engine,
    method: `hybrid rag_search (${['fts', index.method].join(' + ')})`,
    queries: count,
    p50_ms: round(percentile(durations, 50), 2),
    p99_ms: round(percentile(durations, 99), 2),
    recall_at_10: '',
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
    engine: 'pglite (memory)',
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
