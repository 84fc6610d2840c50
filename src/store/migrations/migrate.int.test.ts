import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database.ts';
import { testDatabaseEngines } from '../testing/test-databases.ts';
import { migrations } from './index.ts';
import { migrate } from './migrate.ts';

describe.each(testDatabaseEngines())('migrations on $name', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(() => database.close());

  it('applies nothing the second time', async () => {
    expect(await migrate(database)).toEqual([]);
  });

  it('applies a new migration exactly once when several processes start together', async () => {
    const next = {
      version: 10_000,
      name: 'test-only',
      sql: 'create table test_only_migration (id integer);',
    };
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => migrate(database, [...migrations, next])),
    );
    expect(outcomes.flat()).toEqual([10_000]);
    const recorded = await database.query(
      'select version, name from schema_migrations where version = 10000',
    );
    expect(recorded.rows).toEqual([{ version: 10_000, name: 'test-only' }]);
  });

  it('rolls back a failing migration whole, recording nothing', async () => {
    const broken = {
      version: 10_001,
      name: 'broken',
      sql: 'create table half_done (id integer); select no_such_function();',
    };
    await expect(migrate(database, [...migrations, broken])).rejects.toThrow();
    const tables = await database.query(
      "select 1 from information_schema.tables where table_name = 'half_done'",
    );
    expect(tables.rows).toEqual([]);
    expect(
      (await database.query('select 1 from schema_migrations where version = 10001')).rows,
    ).toEqual([]);
  });
});
