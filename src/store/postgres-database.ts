import pg from 'pg';
import type { Database, ListenEvents, Queryable, QueryResult } from './database.ts';
import { foregroundStatements } from './foreground-statements.ts';

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

/**
 * The memory workers' own pool (ADR 0427): one connection listens for appends, one each for the graph
 * projector's and the RAG indexer's drain. Opened lazily, apart from `maxConnections`: a process holds at most
 * `maxConnections + MEMORY_POOL_CONNECTIONS` connections to the server.
 */
export const MEMORY_POOL_CONNECTIONS = 3;

/** How each pool names itself to the server (`pg_stat_activity.application_name`). */
export const APPLICATION_NAME = 'forja';
export const MEMORY_APPLICATION_NAME = 'forja memory';

/**
 * Opens a pool of connections to a PostgreSQL server (≥ 15), and beside it the memory workers' pool
 * (`background`): their statements never wait for, nor hold, a connection a message's statement could use.
 */
export async function openPostgresDatabase(options: PostgresDatabaseOptions): Promise<Database> {
  const pool = openPool(options.connectionString, options.maxConnections ?? 10, APPLICATION_NAME);
  const memoryPool = openPool(
    options.connectionString,
    MEMORY_POOL_CONNECTIONS,
    MEMORY_APPLICATION_NAME,
  );
  await pool.query('select 1');
  const foreground = foregroundStatements();
  const description = `PostgreSQL server at ${describeWithoutSecrets(options.connectionString)}`;
  const background: Database = {
    kind: 'postgres',
    description,
    query: (sql, params) => runQuery(memoryPool, sql, params),
    execute: async (script) => void (await memoryPool.query(script)),
    // A drain begins at once: no connection of the message path's waits for it (ADR 0427; before, it waited
    // for a quiet moment of the message path, ADR 0245's addendum).
    transaction: (work) => runTransaction(memoryPool, work),
    listen: (channel, onNotification, events) =>
      listen(memoryPool, channel, onNotification, events),
    close: async () => undefined,
  };
  return {
    kind: 'postgres',
    description,
    background,
    query: (sql, params) => foreground.track(runQuery(pool, sql, params)),
    execute: async (script) => void (await foreground.track(pool.query(script))),
    transaction: async (work, transactionOptions) => {
      // Derived work on this pool (a caller without `background`) still begins in a quiet moment.
      if (transactionOptions?.background === true) {
        await foreground.quiet();
        return runTransaction(pool, work);
      }
      return runTransaction(pool, work, foreground.track);
    },
    listen: (channel, onNotification, events) => listen(pool, channel, onNotification, events),
    close: async () => {
      await Promise.all([pool.end(), memoryPool.end()]);
    },
  };
}

function openPool(connectionString: string, max: number, applicationName: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    types: typeParsers,
    application_name: applicationName,
  });
  // Idle clients can fail when the server restarts; the pool replaces them, and this keeps the process alive.
  pool.on('error', () => undefined);
  return pool;
}

async function runQuery<Row>(
  target: pg.Pool | pg.PoolClient,
  sql: string,
  params?: unknown[],
): Promise<QueryResult<Row>> {
  const result = await target.query(sql, params);
  return { rows: result.rows as Row[] };
}

async function runTransaction<T>(
  pool: pg.Pool,
  work: (transaction: Queryable) => Promise<T>,
  track: <R>(statement: Promise<R>) => Promise<R> = (statement) => statement,
): Promise<T> {
  const client = await pool.connect();
  try {
    await track(client.query('begin'));
    const result = await work({
      query: (sql, params) => track(runQuery(client, sql, params)),
      execute: async (script) => void (await track(client.query(script))),
    });
    await track(client.query('commit'));
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

const LISTEN_RETRY_FIRST_MS = 100;
const LISTEN_RETRY_MAX_MS = 5_000;

/**
 * LISTEN on a connection of its own, held for as long as the subscription lives. When that connection is lost
 * (a server restart, a failover, `pg_terminate_backend`), its 'error' is handled here — unhandled it would end
 * the process — and a new connection listens again after a backoff (100 ms doubling to 5 s), until it works.
 */
async function listen(
  pool: pg.Pool,
  channel: string,
  onNotification: (payload: string) => void,
  events: ListenEvents = {},
): Promise<() => Promise<void>> {
  const statement = `listen ${quoteIdentifier(channel)}`;
  const handler = (message: pg.Notification) => {
    if (message.channel === channel) onNotification(message.payload ?? '');
  };
  let current: pg.PoolClient | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  let failures = 0;

  const lose = (client: pg.PoolClient, error: Error) => {
    if (current !== client) return;
    current = null;
    client.off('notification', handler);
    client.release(error);
    scheduleRetry(error);
  };
  const scheduleRetry = (error: Error) => {
    if (stopped || retry) return;
    const delay = Math.min(LISTEN_RETRY_MAX_MS, LISTEN_RETRY_FIRST_MS * 2 ** failures);
    failures += 1;
    events.lost?.(error, delay);
    retry = setTimeout(() => void reopen(), delay);
    retry.unref();
  };
  const open = async () => {
    const client = await pool.connect();
    client.on('error', (error: Error) => lose(client, error));
    client.on('end', () => lose(client, new Error('the listening connection ended')));
    client.on('notification', handler);
    current = client;
    try {
      await client.query(statement);
    } catch (error) {
      lose(client, error as Error);
      throw error;
    }
  };
  const reopen = async () => {
    retry = null;
    if (stopped) return;
    try {
      await open();
    } catch (error) {
      scheduleRetry(error as Error);
      return;
    }
    failures = 0;
    if (stopped) return void (await release());
    events.restored?.();
  };
  const release = async () => {
    const client = current;
    current = null;
    if (!client) return;
    client.off('notification', handler);
    await client.query(`unlisten ${quoteIdentifier(channel)}`).catch(() => undefined);
    client.release();
  };

  await open().catch((error: unknown) => {
    stopped = true;
    if (retry) clearTimeout(retry);
    throw error;
  });
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await release();
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
