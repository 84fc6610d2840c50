import { readFileSync } from 'node:fs';
import {
  createLocalEmbedder,
  createPostgresVectorIndex,
  embedLocally,
  LOCAL_EMBEDDER_NAME,
  ragSearch,
  type IndexedChunk,
  type RagHit,
  type VectorIndex,
} from '../../src/memory/index.ts';
import { createProject, type Database } from '../../src/store/index.ts';
import { migrate } from '../../src/store/migrations/migrate.ts';
import { openPgliteDatabase } from '../../src/store/pglite-database.ts';
import { openBenchServer } from '../lib/bench-databases.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { round } from '../lib/latency.ts';

interface LabelledSet {
  fragments: Array<{ id: string; text: string }>;
  questions: Array<{ query: string; answer: string; language: string }>;
}

const SET: LabelledSet = JSON.parse(
  readFileSync(new URL('../fixtures/rag-questions.json', import.meta.url), 'utf8'),
);
const K = 5;

/**
 * Hit rate of a small labelled set of project questions (Portuguese and English, bench/fixtures/rag-questions.json):
 * for each question, is the fragment that answers it first (hit@1) or in the top 5 (hit@5)? The hybrid
 * `rag_search` (what Forja runs) beside each of its parts alone — the vector search with the local embedder
 * (the baseline before hybrid search) and the full-text search — on PGlite and on the server.
 */
export async function run(): Promise<BenchReport> {
  const rows: BenchReport['rows'] = [];
  const notes: string[] = [];
  const pglite = await openPgliteDatabase();
  await migrate(pglite);
  rows.push(...(await measure('pglite (memory)', pglite)));
  await pglite.close();
  const server = await openBenchServer();
  if ('unavailable' in server) notes.push(`PostgreSQL server not measured: ${server.unavailable}`);
  else {
    rows.push(...(await measure('postgres server', server.database)));
    await server.dispose();
  }
  notes.push(
    `${SET.questions.length} questions (${SET.questions.filter((question) => question.language === 'pt').length} Portuguese) over ${SET.fragments.length} fragments; the local hashed n-gram embedder (no model).`,
  );
  notes.push(
    'vector only = the search before ADR 0024; fts only = PostgreSQL full-text search in the fragment language with unaccent; hybrid = both fused by reciprocal rank (what rag_search runs).',
  );
  return { name: 'rag-questions', rows, notes };
}

async function measure(engine: string, database: Database): Promise<BenchReport['rows']> {
  const project = await createProject(database, { name: 'bench' });
  const index = await createPostgresVectorIndex(database);
  await index.upsert(
    SET.fragments.map(
      (fragment): IndexedChunk => ({
        id: `${fragment.id}#0`,
        projectId: project.id,
        sourceKind: 'artifact',
        sourceId: fragment.id,
        sourceLabel: fragment.id,
        chunkIndex: 0,
        text: fragment.text,
        embedder: LOCAL_EMBEDDER_NAME,
        embedding: embedLocally(fragment.text),
      }),
    ),
  );
  const embedder = createLocalEmbedder();
  const searches: Record<string, (query: string) => Promise<readonly RagHit[]>> = {
    'vector only (baseline)': (query) =>
      index.search({
        projectId: project.id,
        embedder: LOCAL_EMBEDDER_NAME,
        vector: embedLocally(query),
        k: K,
      }),
    'fts only': (query) =>
      index.searchText({ projectId: project.id, embedder: LOCAL_EMBEDDER_NAME, text: query, k: K }),
    'hybrid rag_search': async (query) =>
      (await ragSearch({ embedder, index: index as VectorIndex }, project.id, { query, k: K }))
        .hits,
  };
  const rows: BenchReport['rows'] = [];
  for (const [method, search] of Object.entries(searches)) {
    for (const language of ['pt', 'en']) {
      const questions = SET.questions.filter((question) => question.language === language);
      let first = 0;
      let top = 0;
      for (const question of questions) {
        const ids = (await search(question.query)).map((hit) => hit.source_id);
        if (ids[0] === question.answer) first += 1;
        if (ids.includes(question.answer)) top += 1;
      }
      rows.push({
        engine,
        method,
        language,
        questions: questions.length,
        hit_at_1: round(first / questions.length, 3),
        hit_at_5: round(top / questions.length, 3),
      });
    }
  }
  return rows;
}
