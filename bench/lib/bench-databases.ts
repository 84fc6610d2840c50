import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate } from '../../src/store/migrations/migrate.ts';
import { openPgliteDatabase } from '../../src/store/pglite-database.ts';
import { openPgliteWorkerDatabase } from '../../src/store/pglite-worker-database.ts';
import { openPostgresDatabase } from '../../src/store/postgres-database.ts';
import type { Database } from '../../src/store/index.ts';

/** A migrated database a benchmark runs on, and how to throw it away. */
export interface BenchDatabase {
  engine: string;
  database: Database;
  dispose(): Promise<void>;
}

/**
 * Embedded PGlite on disk in a temporary directory (Forja's default engine): on a worker thread as `forja serve`
 * runs it (ADR 0215), or on the benchmark's own thread (`thread: 'main'`, how it ran before).
 */
export async function openBenchPglite(
  options: {
    thread?: 'worker' | 'main';
    /** Opens the worker-thread engine instead of today's (an earlier version of it: `baselineTree`). */
    openWorker?: typeof openPgliteWorkerDatabase;
  } = {},
): Promise<BenchDatabase> {
  const directory = mkdtempSync(join(tmpdir(), 'forja-bench-'));
  const thread = options.thread ?? 'worker';
  const open =
    thread === 'worker' ? (options.openWorker ?? openPgliteWorkerDatabase) : openPgliteDatabase;
  const database = await open({ dataDirectory: join(directory, 'pgdata') });
  await migrate(database);
  return {
    engine: thread === 'worker' ? 'pglite (disk)' : 'pglite (disk, main thread)',
    database,
    dispose: async () => {
      await database.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** A scratch database on the PostgreSQL server (DATABASE_URL, or the local one), or why there is none. */
export async function openBenchServer(
  options: {
    maxConnections?: number;
    /** Opens the server engine instead of today's (an earlier version of it: `baselineTree`). */
    open?: typeof openPostgresDatabase;
  } = {},
): Promise<BenchDatabase | { unavailable: string }> {
  const serverUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const name = `forja_bench_${process.pid}_${Date.now()}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  try {
    await admin(`create database ${name}`);
  } catch (error) {
    return { unavailable: error instanceof Error ? error.message : String(error) };
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const open = options.open ?? openPostgresDatabase;
  const database = await open({
    connectionString: url.toString(),
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
  });
  await migrate(database);
  return {
    engine: 'postgres server',
    database,
    dispose: async () => {
      await database.close();
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}
