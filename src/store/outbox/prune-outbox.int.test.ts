import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database.ts';
import { testDatabaseEngines } from '../testing/test-databases.ts';
import { pruneOutbox } from './prune-outbox.ts';

describe.each(testDatabaseEngines())('pruneOutbox on $name', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(() => database.close());

  it('deletes only processed rows older than the retention, never pending ones', async () => {
    await database.query(`insert into outbox (aggregate_type, aggregate_id, payload, processed_at) values
      ('task', 'old-done', '{}', now() - interval '10 days'),
      ('task', 'recent-done', '{}', now() - interval '1 hour'),
      ('task', 'pending', '{}', null)`);
    const pendingBefore = await database.query(
      `select count(*)::int as n from outbox where processed_at is null`,
    );
    expect(await pruneOutbox(database, 24 * 60 * 60 * 1000)).toBe(1);
    const left = await database.query<{ aggregate_id: string }>(
      `select aggregate_id from outbox where aggregate_id in ('old-done', 'recent-done', 'pending') order by aggregate_id`,
    );
    expect(left.rows.map((row) => row.aggregate_id)).toEqual(['pending', 'recent-done']);
    expect(
      (await database.query(`select count(*)::int as n from outbox where processed_at is null`))
        .rows,
    ).toEqual(pendingBefore.rows);
    expect(await pruneOutbox(database, 24 * 60 * 60 * 1000)).toBe(0);
  });
});
