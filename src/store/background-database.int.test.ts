import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from './database.ts';
import { openPgliteWorkerDatabase } from './pglite-worker-database.ts';
import {
  MEMORY_APPLICATION_NAME,
  MEMORY_POOL_CONNECTIONS,
  openPostgresDatabase,
} from './postgres-database.ts';

/**
 * ADR 0427: the memory workers' statements never queue ahead of a message's. On the server they run on a pool
 * of their own; on PGlite's worker thread, behind every foreground statement waiting for the one connection.
 */

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Resolves `label` after `ms`, to race a statement that should not have to wait for what is held. */
const after = (ms: number, label: string) =>
  new Promise<string>((resolve) => setTimeout(() => resolve(label), ms).unref());

describe.runIf(process.env.DATABASE_URL)('the memory workers on the PostgreSQL server', () => {
  const serverUrl = process.env.DATABASE_URL ?? '';
  const name = `forja_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  let database: Database;
  beforeAll(async () => {
    await admin(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    // A small message-path pool: drains sharing it would take every connection.
    database = await openPostgresDatabase({ connectionString: url.toString(), maxConnections: 2 });
  });
  afterAll(async () => {
    await database.close();
    await admin(`drop database if exists ${name} with (force)`);
  });

  it('run on a pool of their own: every drain statement on a memory connection, and with all of those held, a message’s statements and transaction are answered', async () => {
    const background = database.background;
    expect(background).toBeDefined();
    const held = gate();
    const begun: Promise<void>[] = [];
    const drains = Array.from({ length: MEMORY_POOL_CONNECTIONS }, (_, index) => {
      const began = gate();
      begun.push(began.opened);
      return background!.transaction(
        async (transaction: Queryable) => {
          await transaction.query(`select 'drain ${index}' as marker`);
          began.open();
          await held.opened;
        },
        { background: true },
      );
    });
    await Promise.all(begun);
    const activity = await database.query<{ application_name: string; query: string }>(
      `select application_name, query from pg_stat_activity where datname = current_database() and query like 'select ''drain %'`,
    );
    expect(activity.rows.map((row) => row.application_name)).toEqual(
      Array.from({ length: MEMORY_POOL_CONNECTIONS }, () => MEMORY_APPLICATION_NAME),
    );
    const message = (async () => {
      await database.query('select 1');
      await database.transaction(async (transaction) => transaction.query('select 2'));
      await database.query('select 3');
      return 'message answered';
    })();
    const first = await Promise.race([message, after(10_000, 'drains still held')]);
    held.open();
    await Promise.all(drains);
    expect(first).toBe('message answered');
  });
});

describe('the memory workers on PGlite’s worker thread', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openPgliteWorkerDatabase();
  });
  afterAll(() => database.close());

  it('a message’s statement queued after N drain statements is answered before them', async () => {
    const background = database.background!;
    const order: string[] = [];
    const held = gate();
    const opened = gate();
    // A foreground transaction holds the one connection: everything sent meanwhile queues in the worker.
    const holding = database.transaction(async (transaction) => {
      await transaction.query('select 0');
      opened.open();
      await held.opened;
    });
    await opened.opened;
    const drains = Array.from({ length: 5 }, (_, index) =>
      background.query('select $1::integer as n', [index]).then(() => order.push(`drain ${index}`)),
    );
    const drainTransaction = background.transaction(async (transaction) => {
      await transaction.query('select 1');
      order.push('drain transaction');
    });
    const message = database.query('select 1').then(() => order.push('message'));
    held.open();
    await Promise.all([holding, message, drainTransaction, ...drains]);
    expect(order[0]).toBe('message');
    expect(order.slice(1).sort()).toEqual([
      'drain 0',
      'drain 1',
      'drain 2',
      'drain 3',
      'drain 4',
      'drain transaction',
    ]);
  });

  it('lets a drain transaction already open finish before a message’s statement that arrives meanwhile', async () => {
    const background = database.background!;
    const order: string[] = [];
    const held = gate();
    const opened = gate();
    const drain = background.transaction(async (transaction) => {
      await transaction.query('select 1');
      opened.open();
      await held.opened;
      await transaction.query('select 2');
      order.push('drain row');
    });
    await opened.opened;
    const message = database.query('select 3').then(() => order.push('message'));
    held.open();
    await Promise.all([drain, message]);
    expect(order).toEqual(['drain row', 'message']);
  });
});
