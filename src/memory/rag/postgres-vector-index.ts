import { detectTextLanguage } from '../../domain/memory/index.ts';
import { RAG_VECTOR_DIMENSION } from '../../store/migrations/0005-rag.ts';
import type { Database, Queryable } from '../../store/index.ts';
import type { IndexedChunk, RagHit } from './project-fragment.ts';
import { vectorSignature } from './vector-signature.ts';
import type { SearchMethod, VectorIndex } from './vector-index.ts';

/**
 * HNSW candidates looked at per search. At 100,000 chunks pgvector's default (40) finds 77% of the true top 10,
 * 100 finds 88%, 400 finds 97% at a p50 under 5 ms on PGlite (bench/results/rag-search.json).
 */
export const DEFAULT_EF_SEARCH = 400;

/**
 * Candidates the signature scan hands to the exact ranking, per search (at least this many, and 50 per hit
 * asked). At 100,000 chunks this keeps recall@10 above 0.95 (bench/results/rag-search.json).
 */
export const DEFAULT_LSH_CANDIDATES = 1200;

export interface PostgresVectorIndexOptions {
  /** `auto`: HNSW where migration 0005 found pgvector, the signature search otherwise. `exact` scores every chunk. */
  method?: 'auto' | SearchMethod;
  efSearch?: number;
  lshCandidates?: number;
}

/** Whether this database has the pgvector column (migration 0005 adds it only where the extension exists). */
export async function hasVectorColumn(database: Queryable): Promise<boolean> {
  const found = await database.query(
    `select 1 from information_schema.columns where table_schema = 'rag' and table_name = 'chunks' and column_name = 'embedding_vector'`,
  );
  return found.rows.length > 0;
}

/**
 * The RAG index in `rag.chunks`. Vectors are stored as `real[]` always (the exact path scores them in SQL as
 * dot products of unit vectors) and, where pgvector exists and the dimension fits, also as `vector(256)`
 * under an HNSW index on cosine distance. `method: 'hnsw'` asked where there is no pgvector is an error.
 */
export async function createPostgresVectorIndex(
  database: Database,
  options: PostgresVectorIndexOptions = {},
): Promise<VectorIndex> {
  const vectorColumn = await hasVectorColumn(database);
  const asked = options.method ?? 'auto';
  if (asked === 'hnsw' && !vectorColumn)
    throw new Error(
      'the HNSW search needs the pgvector extension, which this database does not have',
    );
  const method: SearchMethod = asked === 'auto' ? (vectorColumn ? 'hnsw' : 'lsh') : asked;
  const efSearch = options.efSearch ?? DEFAULT_EF_SEARCH;
  const lshCandidates = options.lshCandidates ?? DEFAULT_LSH_CANDIDATES;

  // HNSW fits only the indexed dimension; the signature search fits any, so it is the fallback for the rest.
  const methodFor = (dimension: number): SearchMethod =>
    method === 'hnsw' ? (dimension === RAG_VECTOR_DIMENSION ? 'hnsw' : 'lsh') : method;
  return {
    method,
    methodFor,
    upsert: async (chunks, within = database) => {
      if (chunks.length === 0) return;
      const column = <Key extends keyof IndexedChunk>(key: Key) =>
        chunks.map((chunk) => chunk[key]);
      // Vectors travel as array literals: PostgreSQL parses them far faster than JSON (see bench/memory/rag-search.ts).
      const embeddings = chunks.map((chunk) => `{${chunk.embedding.join(',')}}`);
      await within.query(vectorColumn ? UPSERT_WITH_VECTOR_SQL : UPSERT_SQL, [
        column('id'),
        column('projectId'),
        column('sourceKind'),
        column('sourceId'),
        column('sourceLabel'),
        column('chunkIndex'),
        column('text'),
        column('embedder'),
        embeddings,
        chunks.map((chunk) => detectTextLanguage(chunk.text)),
        chunks.map((chunk) => vectorSignature(chunk.embedding)),
      ]);
    },
    removeSource: async (projectId, sourceId, within = database) =>
      void (await within.query('delete from rag.chunks where project_id = $1 and source_id = $2', [
        projectId,
        sourceId,
      ])),
    searchText: async ({ projectId, embedder, text, k }) =>
      (await database.query<HitRow>(TEXT_SQL, [projectId, embedder, text, k])).rows.map(toHit),
    search: async ({ projectId, embedder, vector, k }) => {
      const searched = methodFor(vector.length);
      if (searched === 'exact')
        return (await database.query<HitRow>(EXACT_SQL, [projectId, embedder, vector, k])).rows.map(
          toHit,
        );
      if (searched === 'lsh') {
        const candidates = Math.max(lshCandidates, k * 50);
        return (
          await database.query<HitRow>(LSH_SQL, [
            projectId,
            embedder,
            vector,
            k,
            vectorSignature(vector),
            candidates,
          ])
        ).rows.map(toHit);
      }
      return database.transaction(async (transaction) => {
        await transaction.query(
          `select set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'strict_order', true)`,
          [String(Math.max(efSearch, k))],
        );
        return (
          await transaction.query<HitRow>(HNSW_SQL, [
            projectId,
            embedder,
            `[${vector.join(',')}]`,
            k,
          ])
        ).rows.map(toHit);
      });
    },
  };
}

interface HitRow {
  id: string;
  source_kind: RagHit['source_kind'];
  source_id: string;
  source_label: string;
  text: string;
  score: number;
}

const toHit = (row: HitRow): RagHit => ({
  chunk_id: row.id,
  source_kind: row.source_kind,
  source_id: row.source_id,
  source: row.source_label,
  text: row.text,
  score: Number(row.score),
});

const ROWS = `
  with rows as (
    select c.id, c.project_id::uuid as project_id, c.source_kind, c.source_id, c.source_label, c.chunk_index, c.text, c.embedder, c.embedding::real[] as embedding,
      c.language, c.signature::bit(256) as signature
    from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::integer[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
      as c (id, project_id, source_kind, source_id, source_label, chunk_index, text, embedder, embedding, language, signature)
  )`;
const COLUMNS =
  'id, project_id, source_kind, source_id, source_label, chunk_index, text, embedder, embedding, language';
const ON_CONFLICT = `on conflict (project_id, id) do update set text = excluded.text, embedder = excluded.embedder, embedding = excluded.embedding, source_label = excluded.source_label, language = excluded.language`;

// The chunk and its signature in one statement: the signature goes to the narrow table the signature scan
// reads (migration 0014), for the rows the first insert wrote.
const SIGNATURES = `
  insert into rag.chunk_signatures (project_id, id, embedder, signature)
  select rows.project_id, rows.id, rows.embedder, rows.signature from written join rows using (project_id, id)
  on conflict (project_id, id) do update set embedder = excluded.embedder, signature = excluded.signature`;

const UPSERT_SQL = `${ROWS}, written as (
    insert into rag.chunks (${COLUMNS}) select ${COLUMNS} from rows ${ON_CONFLICT} returning project_id, id
  ) ${SIGNATURES}`;

const UPSERT_WITH_VECTOR_SQL = `${ROWS}, written as (
    insert into rag.chunks (${COLUMNS}, embedding_vector)
    select ${COLUMNS}, case when cardinality(embedding) = ${RAG_VECTOR_DIMENSION} then embedding::vector end from rows
    ${ON_CONFLICT}, embedding_vector = excluded.embedding_vector returning project_id, id
  ) ${SIGNATURES}`;

// Both vectors are unit length, so the dot product is the cosine similarity; ties go to the smaller id.
const EXACT_SQL = `
  select id, source_kind, source_id, source_label, text,
         (select sum(a::float8 * b::float8) from unnest(embedding, $3::real[]) as pairs (a, b)) as score
  from rag.chunks where project_id = $1 and embedder = $2
  order by score desc nulls last, id limit $4`;

// Candidates by Hamming distance of the signatures (XOR, then popcount of the 256 bits), scanned in the narrow
// `rag.chunk_signatures` (migration 0014) and carrying only their ids; then the exact dot product over those
// candidates' rows alone. Ties go to the smaller id, as in the exact search.
const LSH_SQL = `
  with candidates as materialized (
    select id from rag.chunk_signatures
    where project_id = $1 and embedder = $2
    order by bit_count(signature # $5::bit(256)), id limit $6
  )
  select c.id, c.source_kind, c.source_id, c.source_label, c.text,
         (select sum(a::float8 * b::float8) from unnest(c.embedding, $3::real[]) as pairs (a, b)) as score
  from candidates join rag.chunks c on c.project_id = $1 and c.id = candidates.id
  order by score desc nulls last, c.id limit $4`;

const HNSW_SQL = `
  select id, source_kind, source_id, source_label, text, 1 - (embedding_vector <=> $3::vector) as score
  from rag.chunks where project_id = $1 and embedder = $2 and embedding_vector is not null
  order by embedding_vector <=> $3::vector limit $4`;

/** SQL for a lexeme as a tsquery operand: in quotes, its backslashes and quotes escaped. */
const quotedLexeme = (column: string) =>
  String.raw`'''' || replace(replace(${column}, '\', '\\'), '''', '''''') || ''''`;

// The query is read in every configuration a chunk may be indexed in, and each distinct lexeme of those
// readings is an alternative (`|`): a chunk matches when it shares a stem with the query, and `ts_rank_cd`
// orders by how many and how close. Each lexeme is in the query once (ADR 0260): the configurations mostly
// read a word alike, and each repeat made ranking every match dearer for the same score. A lexeme is quoted
// for the tsquery (backslash and quote escaped), so it is taken as it is. Accents are folded on both sides. A
// query with no lexeme (only stop words or symbols) finds nothing.
const TEXT_SQL = `
  with lexemes as (
    select distinct lexeme
    from unnest(array['portuguese', 'english', 'simple']::regconfig[]) as configuration,
      unnest(tsvector_to_array(to_tsvector(configuration, rag.fold_accents($3)))) as lexeme
  ), query as (
    select string_agg(${quotedLexeme('lexeme')}, ' | ')::tsquery as tsquery from lexemes
  )
  select id, source_kind, source_id, source_label, text, ts_rank_cd(tsv, query.tsquery) as score
  from rag.chunks, query
  where project_id = $1 and embedder = $2 and query.tsquery is not null and tsv @@ query.tsquery
  order by score desc, id limit $4`;
