import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database.ts';
import { testDatabaseEngines } from '../testing/test-databases.ts';
import { drainOutbox } from './drain-outbox.ts';
import type { OutboxRow } from './outbox-row.ts';

describe.each(testDatabaseEngines())('outbox drain on $name', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(() => database.close());

  /** Each test drains its own aggregate type, so tests never see each other's rows. */
  async function enqueue(aggregateType: string, count: number): Promise<void> {
    for (let index = 0; index < count; index += 1) {
      await database.query(
        'insert into outbox (aggregate_type, aggregate_id, payload) values ($1, $2, $3::jsonb)',
        [aggregateType, `a${index}`, JSON.stringify({ index })],
      );
    }
  }
  const pendingCount = async (aggregateType: string) =>
    (
      await database.query<{ count: number }>(
        'select count(*) as count from outbox where aggregate_type = $1 and processed_at is null',
        [aggregateType],
      )
    ).rows[0]!.count;

  it('commits after the row that used up the time budget, leaving the rest of the batch to the next drain', async () => {
    const mine = `t_${randomUUID()}`;
    await enqueue(mine, 3);
    const slowly = {
      aggregateTypes: [mine],
      timeBudgetMs: 1,
      handle: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { outcome: 'processed' as const };
      },
    };
    expect(await drainOutbox(database, slowly)).toEqual({
      processed: 1,
      failed: 0,
      stopped: null,
      outOfTime: true,
    });
    expect(await pendingCount(mine)).toBe(2);
    expect(await drainOutbox(database, { ...slowly, timeBudgetMs: 60_000 })).toEqual({
      processed: 2,
      failed: 0,
      stopped: null,
    });
  });

  it('commits after the first row when other requests wait for the connection (ADR 0245)', async () => {
    const mine = `t_${randomUUID()}`;
    await enqueue(mine, 3);
    const busy = { ...database, requestsWaiting: () => true };
    const drain = {
      aggregateTypes: [mine],
      handle: async () => ({ outcome: 'processed' as const }),
    };
    expect(await drainOutbox(busy, drain)).toEqual({
      processed: 1,
      failed: 0,
      stopped: null,
      outOfTime: true,
    });
    expect(await pendingCount(mine)).toBe(2);
  });

  it('processes pending rows of its aggregate types in id order and leaves other types alone', async () => {
    const mine = `t_${randomUUID()}`;
    const other = `t_${randomUUID()}`;
    await enqueue(mine, 3);
    await enqueue(other, 2);
    const seen: OutboxRow[] = [];
    const report = await drainOutbox(database, {
      aggregateTypes: [mine],
      handle: async (row) => (seen.push(row), { outcome: 'processed' }),
    });
    expect(report).toEqual({ processed: 3, failed: 0, stopped: null });
    expect(seen.map((row) => row.payload)).toEqual([{ index: 0 }, { index: 1 }, { index: 2 }]);
    expect(await pendingCount(mine)).toBe(0);
    expect(await pendingCount(other)).toBe(2);
  });

  it('records attempts and last_error for a failing row, keeps going, and retries it later', async () => {
    const type = `t_${randomUUID()}`;
    await enqueue(type, 3);
    let failOnce = true;
    const first = await drainOutbox(database, {
      aggregateTypes: [type],
      retryDelayMs: () => 0,
      handle: async (row) => {
        if (row.aggregate_id === 'a1' && failOnce) {
          failOnce = false;
          throw new Error('downstream said no');
        }
        return { outcome: 'processed' };
      },
    });
    expect(first).toEqual({ processed: 2, failed: 1, stopped: null });
    const failed = await database.query<{ attempts: number; last_error: string }>(
      'select attempts, last_error from outbox where aggregate_type = $1 and processed_at is null',
      [type],
    );
    expect(failed.rows).toEqual([{ attempts: 1, last_error: 'Error: downstream said no' }]);
    const second = await drainOutbox(database, {
      aggregateTypes: [type],
      handle: async () => ({ outcome: 'processed' }),
    });
    expect(second.processed).toBe(1);
    expect(await pendingCount(type)).toBe(0);
  });

  it('waits out the retry delay before taking a failed row again', async () => {
    const type = `t_${randomUUID()}`;
    await enqueue(type, 1);
    await drainOutbox(database, {
      aggregateTypes: [type],
      retryDelayMs: () => 60_000,
      handle: async () => Promise.reject(new Error('no')),
    });
    const again = await drainOutbox(database, {
      aggregateTypes: [type],
      handle: async () => ({ outcome: 'processed' }),
    });
    expect(again).toEqual({ processed: 0, failed: 0, stopped: null });
  });

  it('stops the cycle when the handler says so: that row and the rest stay for the next cycle', async () => {
    const type = `t_${randomUUID()}`;
    await enqueue(type, 4);
    const attempted: string[] = [];
    const report = await drainOutbox(database, {
      aggregateTypes: [type],
      handle: async (row) => {
        attempted.push(row.aggregate_id);
        return row.aggregate_id === 'a1'
          ? { outcome: 'stop_cycle', reason: 'graph unavailable' }
          : { outcome: 'processed' };
      },
    });
    expect(report).toEqual({
      processed: 1,
      failed: 0,
      stopped: { rowId: expect.any(Number), reason: 'graph unavailable' },
    });
    expect(attempted).toEqual(['a0', 'a1']);
    const untouched = await database.query<{ attempts: number }>(
      'select attempts from outbox where aggregate_type = $1 and processed_at is null order by id',
      [type],
    );
    expect(untouched.rows).toEqual([{ attempts: 0 }, { attempts: 0 }, { attempts: 0 }]);
    const next = await drainOutbox(database, {
      aggregateTypes: [type],
      handle: async () => ({ outcome: 'processed' }),
    });
    expect(next.processed).toBe(3);
  });

  it("rolls back a handler's writes when it throws, and commits them with the row when it succeeds", async () => {
    const type = `t_${randomUUID()}`;
    await enqueue(type, 2);
    await database.query(
      'create table if not exists drain_effects (aggregate_id text primary key)',
    );
    await drainOutbox(database, {
      aggregateTypes: [type],
      retryDelayMs: () => 0,
      handle: async (row, transaction) => {
        await transaction.query('insert into drain_effects values ($1)', [
          `${type}:${row.aggregate_id}`,
        ]);
        if (row.aggregate_id === 'a1') throw new Error('after writing');
        return { outcome: 'processed' };
      },
    });
    const effects = await database.query<{ aggregate_id: string }>(
      'select aggregate_id from drain_effects where aggregate_id like $1',
      [`${type}:%`],
    );
    expect(effects.rows).toEqual([{ aggregate_id: `${type}:a0` }]);
  });

  if (engine.name === 'postgres') {
    it('delivers rows whose transactions commit out of id order', async () => {
      const type = `t_${randomUUID()}`;
      const early = new pg.Client({ connectionString: await connectionStringOf(database) });
      await early.connect();
      try {
        await early.query('begin');
        await early.query(
          "insert into outbox (aggregate_type, aggregate_id) values ($1, 'early')",
          [type],
        );
        await database.query(
          "insert into outbox (aggregate_type, aggregate_id) values ($1, 'late')",
          [type],
        );
        const delivered: string[] = [];
        const handle = async (row: OutboxRow) => (
          delivered.push(row.aggregate_id), { outcome: 'processed' as const }
        );
        await drainOutbox(database, { aggregateTypes: [type], handle });
        expect(delivered).toEqual(['late']);
        await early.query('commit');
        await drainOutbox(database, { aggregateTypes: [type], handle });
        expect(delivered).toEqual(['late', 'early']);
      } finally {
        await early.end();
      }
    });

    it('never gives one row to two concurrent drainers', async () => {
      const type = `t_${randomUUID()}`;
      await enqueue(type, 60);
      const delivered: string[] = [];
      const handle = async (row: OutboxRow) => {
        delivered.push(row.aggregate_id);
        await new Promise((resolve) => setImmediate(resolve));
        return { outcome: 'processed' as const };
      };
      while ((await pendingCount(type)) > 0) {
        await Promise.all(
          [1, 2, 3].map(() =>
            drainOutbox(database, { aggregateTypes: [type], batchSize: 7, handle }),
          ),
        );
      }
      expect(delivered).toHaveLength(60);
      expect(new Set(delivered).size).toBe(60);
    });
  }
});

async function connectionStringOf(database: Database): Promise<string> {
  const row = (await database.query<{ name: string }>('select current_database() as name'))
    .rows[0]!;
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${row.name}`;
  return url.toString();
}
