import pg from 'pg';
import type { Database, Queryable, QueryResult } from './database.ts';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** Type parsers of this pool only: int8 and numeric as numbers, as PGlite returns them. */
const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

export interface PostgresDatabaseOptions {
  connectionString: string;
  maxConnections?: number;
}

/** Opens a pool of connections to a PostgreSQL server (≥ 15). */
export async function openPostgresDatabase(options: PostgresDatabaseOptions): Promise<Database> {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10, types: typeParsers });
  // Idle clients can fail when the server restarts; the pool replaces them, and this keeps the process alive.
  pool.on('error', () => undefined);
  await pool.query('select 1');
  return {
    kind: 'postgres',
    description: `PostgreSQL server at ${describeWithoutSecrets(options.connectionString)}`,
    query: (sql, params) => runQuery(pool, sql, params),
    execute: async (script) => void (await pool.query(script)),
    transaction: (work) => runTransaction(pool, work),
    listen: (channel, onNotification) => listen(pool, channel, onNotification),
    close: () => pool.end(),
  };
}

async function runQuery<Row>(target: pg.Pool | pg.PoolClient, sql: string, params?: unknown[]): Promise<QueryResult<Row>> {
  const result = await target.query(sql, params);
  return { rows: result.rows as Row[] };
}

async function runTransaction<T>(pool: pg.Pool, work: (transaction: Queryable) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work({
      query: (sql, params) => runQuery(client, sql, params),
      execute: async (script) => void (await client.query(script)),
    });
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function listen(pool: pg.Pool, channel: string, onNotification: (payload: string) => void): Promise<() => Promise<void>> {
  const client = await pool.connect();
  const handler = (message: pg.Notification) => {
    if (message.channel === channel) onNotification(message.payload ?? '');
  };
  client.on('notification', handler);
  await client.query(`listen ${quoteIdentifier(channel)}`);
  return async () => {
    client.off('notification', handler);
    await client.query(`unlisten ${quoteIdentifier(channel)}`).catch(() => undefined);
    client.release();
  };
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `postgres://user:secret@host/db` → `postgres://user@host/db`: passwords never reach a log. */
export function describeWithoutSecrets(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    url.password = '';
    return url.toString();
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}
