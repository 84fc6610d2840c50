import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from './errors/postgres-error-codes.ts';
import type { PgliteDatabase } from './pglite-database.ts';
import { openPgliteWorkerDatabase } from './pglite-worker-database.ts';

/** A statement that keeps PGlite busy long enough for a timer set after it to come due. */
const LONG_STATEMENT = 'select count(*)::integer as n from generate_series(1, 1000000)';

describe('PGlite on a worker thread (ADR 0215)', () => {
  let database: PgliteDatabase;
  beforeAll(async () => {
    database = await openPgliteWorkerDatabase();
    await database.execute(
      'create table items (id integer primary key, label text, data bytea, meta jsonb, total numeric)',
    );
  });
  afterAll(() => database.close());

  it('answers rows with the types the in-process engine gives (numeric as a number, dates, json, bytea)', async () => {
    await database.query('insert into items values ($1, $2, $3, $4::jsonb, $5)', [
      1,
      'one',
      new Uint8Array([1, 2, 3]),
      JSON.stringify({ a: [1, 2] }),
      '12.5',
    ]);
    const { rows } = await database.query<{
      label: string;
      data: Uint8Array;
      meta: unknown;
      total: number;
      at: Date;
    }>('select label, data, meta, total, now() as at from items where id = 1');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.label).toBe('one');
    expect([...rows[0]!.data]).toEqual([1, 2, 3]);
    expect(rows[0]!.meta).toEqual({ a: [1, 2] });
    expect(rows[0]!.total).toBe(12.5);
    expect(rows[0]!.at).toBeInstanceOf(Date);
  });

  it('keeps the SQLSTATE code and constraint of an error that crosses the thread', async () => {
    await database.query('insert into items (id) values (2)');
    const failure = await database.query('insert into items (id) values (2)').then(
      () => null,
      (error: unknown) => error as Error & { constraint?: string },
    );
    expect(isUniqueViolation(failure)).toBe(true);
    expect(failure?.constraint).toBe('items_pkey');
    expect(failure?.message).toContain('duplicate key');
  });

  it('commits a transaction that resolves and rolls back one that throws, rethrowing its error', async () => {
    const value = await database.transaction(async (transaction) => {
      await transaction.query('insert into items (id, label) values (10, $1)', ['kept']);
      return (await transaction.query<{ n: number }>('select count(*)::integer as n from items'))
        .rows[0]!.n;
    });
    expect(value).toBeGreaterThan(0);
    const thrown = await database
      .transaction(async (transaction) => {
        await transaction.query('insert into items (id, label) values (11, $1)', ['dropped']);
        throw new Error('the work failed');
      })
      .catch((error: unknown) => error as Error);
    expect(thrown.message).toBe('the work failed');
    const { rows } = await database.query<{ id: number }>(
      'select id from items where id in (10, 11) order by id',
    );
    expect(rows.map((row) => row.id)).toEqual([10]);
  });

  it('runs a query sent outside an open transaction after that transaction ends (one connection)', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted!: () => void;
    const insertedOnce = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const transaction = database.transaction(async (tx) => {
      await tx.query('insert into items (id) values (20)');
      inserted();
      await held;
      await tx.query('insert into items (id) values (21)');
    });
    await insertedOnce;
    const outside = database.query<{ n: number }>(
      'select count(*)::integer as n from items where id in (20, 21)',
    );
    release();
    await transaction;
    expect((await outside).rows[0]!.n).toBe(2);
  });

  it('says a request waits for the connection while a background transaction holds it', async () => {
    let outside!: Promise<unknown>;
    const seen = await database.transaction(
      async (tx) => {
        await tx.query('select 1');
        const before = database.requestsWaiting?.();
        outside = database.query('select 1');
        const during = database.requestsWaiting?.();
        await tx.query('select 1');
        return { before, during };
      },
      { background: true },
    );
    await outside;
    expect(seen).toEqual({ before: false, during: true });
    expect(database.requestsWaiting?.()).toBe(false);
  });

  it('delivers NOTIFY to a listener on commit, and no longer once it unsubscribes', async () => {
    const heard: string[] = [];
    const unlisten = await database.listen('items_changed', (payload) => heard.push(payload));
    await database.transaction(async (transaction) => {
      await transaction.query("select pg_notify('items_changed', 'first')");
    });
    await database
      .transaction(async (transaction) => {
        await transaction.query("select pg_notify('items_changed', 'rolled back')");
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await database.query("select pg_notify('items_changed', 'outside a transaction')");
    await unlisten();
    await database.query("select pg_notify('items_changed', 'after unlisten')");
    expect(heard).toEqual(['first', 'outside a transaction']);
  });

  it('leaves the event loop free while a statement runs', async () => {
    let timerFired = false;
    const running = database.query<{ n: number }>(LONG_STATEMENT);
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        timerFired = true;
        resolve();
      }, 1),
    );
    const { rows } = await running;
    const firedBeforeTheAnswer = timerFired;
    await timer;
    expect(rows[0]!.n).toBe(1_000_000);
    expect(firedBeforeTheAnswer).toBe(true);
  });

  it('starts from a dumped data directory, and refuses queries once closed', async () => {
    const dump = await database.dumpDataDirectory();
    const copy = await openPgliteWorkerDatabase({ loadDataDir: dump });
    const { rows } = await copy.query<{ id: number }>('select id from items where id = 10');
    expect(rows).toEqual([{ id: 10 }]);
    await copy.close();
    await expect(copy.query('select 1')).rejects.toThrow(/closed/);
  });

  it('keeps its data on disk across a close and a reopen', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'forja-pglite-worker-'));
    try {
      const first = await openPgliteWorkerDatabase({ dataDirectory: directory });
      await first.execute('create table kept (id integer)');
      await first.query('insert into kept values (7)');
      await first.close();
      const second = await openPgliteWorkerDatabase({ dataDirectory: directory });
      const { rows } = await second.query<{ id: number }>('select id from kept');
      await second.close();
      expect(rows).toEqual([{ id: 7 }]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
