import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { createPostgresVectorIndex, hasVectorColumn } from './postgres-vector-index.ts';
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
