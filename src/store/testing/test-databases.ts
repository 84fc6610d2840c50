import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../database.ts';
import { migrate } from '../migrations/migrate.ts';
import { openMigratedPglite } from './pglite-template.ts';
import { openPostgresDatabase } from '../postgres-database.ts';

/** One engine the storage tests run against: PGlite always, the PostgreSQL server when DATABASE_URL is set. */
export interface TestDatabaseEngine {
  name: 'pglite' | 'postgres';
  /** A new, empty, migrated database that nothing else uses; `close()` drops it. */
  open(): Promise<Database>;
}

export function testDatabaseEngines(env: NodeJS.ProcessEnv = process.env): TestDatabaseEngine[] {
  const engines: TestDatabaseEngine[] = [{ name: 'pglite', open: openMigratedPglite }];
  const serverUrl = env.DATABASE_URL;
  if (serverUrl) engines.push({ name: 'postgres', open: () => openScratchPostgres(serverUrl) });
  return engines;
}

/** Each test file gets a database of its own on the server, so files run in parallel without sharing rows. */
async function openScratchPostgres(serverUrl: string): Promise<Database> {
  const name = `forja_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  await runOnServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // Enough for a test's concurrent turns to race in the database, and few enough that three files at once,
  // each process with the memory workers' own 3 (ADR 0427), stay under the server's 100 connections.
  const database = await openPostgresDatabase({
    connectionString: url.toString(),
    maxConnections: 24,
  });
  await migrate(database);
  return {
    ...database,
    close: async () => {
      await database.close();
      await runOnServer(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

async function runOnServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
