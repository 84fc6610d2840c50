import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, type Database } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { LOCAL_EMBEDDER_NAME } from './hashed-ngram-embedder.ts';
import { createPostgresVectorIndex, hasVectorColumn } from './postgres-vector-index.ts';
import { chunk, describeVectorIndexContract } from './testing/vector-index-contract.ts';

describe.each(testDatabaseEngines())('Postgres vector index on $name', (engine) => {
  let database: Database;
  let pgvector = false;
  beforeAll(async () => {
    database = await engine.open();
    pgvector = await hasVectorColumn(database);
  });
  afterAll(() => database.close());

  it('chooses HNSW exactly where pgvector exists (always on PGlite), the signature search otherwise', async () => {
    if (engine.name === 'pglite') expect(pgvector).toBe(true);
    const index = await createPostgresVectorIndex(database);
    expect(index.method).toBe(pgvector ? 'hnsw' : 'lsh');
    expect([index.methodFor(256), index.methodFor(1536)]).toEqual([
      pgvector ? 'hnsw' : 'lsh',
      'lsh',
    ]);
    expect((await createPostgresVectorIndex(database, { method: 'lsh' })).methodFor(256)).toBe(
      'lsh',
    );
    expect((await createPostgresVectorIndex(database, { method: 'exact' })).methodFor(256)).toBe(
      'exact',
    );
    if (!pgvector)
      await expect(createPostgresVectorIndex(database, { method: 'hnsw' })).rejects.toThrow(
        /pgvector/,
      );
  });

  it('keeps one signature per chunk, in the narrow table: written, rewritten and deleted with it', async () => {
    const index = await createPostgresVectorIndex(database, { method: 'lsh' });
    const project = await createProject(database, { name: 'signatures' });
    const texts = ['entrega antes das 6h', 'pagamento mensal', 'deploy negado'];
    await index.upsert(texts.map((text, position) => chunk(project.id, position, text)));
    await index.upsert([chunk(project.id, 1, 'pagamento anual', 'another-embedder')]);
    const signatures = async () =>
      (
        await database.query<{ id: string; embedder: string; same: boolean }>(
          `select c.id, s.embedder, s.embedder = c.embedder as same
           from rag.chunks c left join rag.chunk_signatures s using (project_id, id)
           where c.project_id = $1 order by c.id`,
          [project.id],
        )
      ).rows;
    expect(await signatures()).toEqual([
      { id: 'source-0#0', embedder: LOCAL_EMBEDDER_NAME, same: true },
      { id: 'source-1#0', embedder: 'another-embedder', same: true },
      { id: 'source-2#0', embedder: LOCAL_EMBEDDER_NAME, same: true },
    ]);
    await index.removeSource(project.id, 'source-2');
    expect((await signatures()).map((row) => row.id)).toEqual(['source-0#0', 'source-1#0']);
    const left = await database.query<{ count: number }>(
      'select count(*)::int as count from rag.chunk_signatures where project_id = $1',
      [project.id],
    );
    expect(left.rows[0]!.count).toBe(2);
  });

  it('searches text with each lexeme once, finding and ranking as the query of every configuration did', async () => {
    const index = await createPostgresVectorIndex(database, { method: 'exact' });
    const project = await createProject(database, { name: 'text' });
    await index.upsert(CORPUS.map((text, position) => chunk(project.id, position, text)));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...QUERY_WORDS), { minLength: 0, maxLength: 8 }),
        fc.constantFrom(' ', ', ', ' - ', '  '),
        async (words, separator) => {
          const text = words.join(separator);
          const hits = await index.searchText({
            projectId: project.id,
            embedder: LOCAL_EMBEDDER_NAME,
            text,
            k: 10,
          });
          const reference = await database.query<{ id: string; score: number }>(
            EVERY_CONFIGURATION_TEXT_SQL,
            [project.id, LOCAL_EMBEDDER_NAME, text, 10],
          );
          expect(hits.map((hit) => [hit.chunk_id, hit.score])).toEqual(
            reference.rows.map((row) => [row.id, Number(row.score)]),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  describeVectorIndexContract(`exact on ${engine.name}`, () => ({
    database,
    open: () => createPostgresVectorIndex(database, { method: 'exact' }),
  }));
  describeVectorIndexContract(`signatures (lsh) on ${engine.name}`, () => ({
    database,
    open: () => createPostgresVectorIndex(database, { method: 'lsh' }),
  }));
  describeVectorIndexContract(`auto (HNSW where pgvector exists) on ${engine.name}`, () => ({
    database,
    open: () => createPostgresVectorIndex(database),
  }));
});

const CORPUS = [
  'A entrega acontece antes das 6h da manhã; as entregas atrasadas são reembolsadas.',
  'O pagamento é por assinatura mensal, e o orçamento do projeto não pode ser excedido.',
  "The deliveries are running late: the owners of the dog weren't told.",
  'Self-contained co-operation at foo-bar.example.com, version v1.2.3, costs 3.14.',
  "It's a back\\slash and a 'quoted' word: état-major, café, açúcar, pão.",
  'Sessão bloqueada: a ação de deploy foi negada pelo guarda da lane.',
  'Receita de pão de fermentação natural: farinha, água e sal.',
];

/** Words of the queries: inflections, accents, stop words, compounds, symbols, quotes and backslashes. */
const QUERY_WORDS = [
  'entregas',
  'entrega',
  'Entrega',
  'antes',
  'das',
  'de',
  'a',
  'o',
  'the',
  'and',
  'orcamento',
  'orçamento',
  'excedido',
  'deliveries',
  'delivery',
  'running',
  'owners',
  "weren't",
  "it's",
  'self-contained',
  'foo-bar.example.com',
  'v1.2.3',
  '3.14',
  'back\\slash',
  "'quoted'",
  'état-major',
  'cafe',
  'açúcar',
  'pão',
  'sessão',
  'bloqueada',
  'negada',
  'deploy',
  'fermentação',
  '!',
  '&',
  '|',
  '<->',
  ':*',
  '(',
  ')',
];

/** The full-text query before ADR 0260: each configuration's reading, repeats and all, as alternatives. */
const EVERY_CONFIGURATION_TEXT_SQL = `
  with parts as (
    select nullif(replace(plainto_tsquery(configuration, rag.fold_accents($3))::text, ' & ', ' | '), '') as part
    from unnest(array['portuguese', 'english', 'simple']::regconfig[]) as configuration
  ), query as (
    select string_agg('(' || part || ')', ' | ')::tsquery as tsquery from parts where part is not null
  )
  select id, ts_rank_cd(tsv, query.tsquery) as score
  from rag.chunks, query
  where project_id = $1 and embedder = $2 and query.tsquery is not null and tsv @@ query.tsquery
  order by score desc, id limit $4`;
