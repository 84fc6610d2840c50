import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

/** Runs one statement on the PostgreSQL server `connectionString` names, on a connection of its own. */
export async function onServer<Row extends pg.QueryResultRow = pg.QueryResultRow>(
  connectionString: string,
  sql: string,
): Promise<Row[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<Row>(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A database of its own on the server `serverUrl` for the enclosing describe (the e2e tests' `forja serve`
 * processes share it): created before its tests, dropped after them. Returns its URL.
 */
export function scratchServerDatabase(serverUrl: string): string {
  const name = `forja_e2e_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  beforeAll(() => onServer(serverUrl, `create database ${name}`));
  afterAll(() => onServer(serverUrl, `drop database if exists ${name} with (force)`));
  return url.toString();
}
