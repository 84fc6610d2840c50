import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, type Database } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { embedLocally, LOCAL_EMBEDDER_NAME } from './hashed-ngram-embedder.ts';
import { createPostgresVectorIndex, hasVectorColumn } from './postgres-vector-index.ts';
import type { IndexedChunk } from './project-fragment.ts';
import { describeVectorIndexContract } from './testing/vector-index-contract.ts';

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
    await index.upsert(texts.map((text, position) => chunkOf(project.id, position, text)));
    await index.upsert([chunkOf(project.id, 1, 'pagamento anual', 'another-embedder')]);
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

function chunkOf(
  projectId: string,
  position: number,
  text: string,
  embedder = LOCAL_EMBEDDER_NAME,
): IndexedChunk {
  return {
    id: `source-${position}#0`,
    projectId,
    sourceKind: 'artifact',
    sourceId: `source-${position}`,
    sourceLabel: `artifact.business_rule #${position}`,
    chunkIndex: 0,
    text,
    embedder,
    embedding: embedLocally(text),
  };
}
