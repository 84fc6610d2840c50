import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { GraphUnavailableError } from './graph-unavailable-error.ts';
import { createPostgresGraphStore } from './postgres-graph-store.ts';
import { describeGraphStoreContract } from './testing/graph-store-contract.ts';

describe.each(testDatabaseEngines())('Postgres graph store on $name', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(() => database.close());

  describeGraphStoreContract(engine.name, async () => {
    const graph = createPostgresGraphStore(database);
    await graph.clear();
    return graph;
  });

  it('reports a graph that is not there as GraphUnavailableError, and other failures as themselves', async () => {
    await database.transaction(async (transaction) => {
      await transaction.query('savepoint probe');
      await transaction.query('alter schema graph rename to graph_gone');
      const graph = createPostgresGraphStore(transaction);
      const failure = await graph
        .upsertNode({ label: 'Agent', key: 'po', properties: {} })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(GraphUnavailableError);
      expect((failure as Error).message).toMatch(/graph is unavailable/);
      await transaction.query('rollback to savepoint probe');
    });
    const wrong = await createPostgresGraphStore(database)
      .upsertNode({ label: 'lowercase', key: 'x', properties: {} })
      .catch((error: unknown) => error);
    expect(wrong).not.toBeInstanceOf(GraphUnavailableError);
  });
});
