import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import type { Database, QueryResult } from './database.ts';

const NUMERIC_OID = 1700;

export interface PgliteDatabaseOptions {
  /** A directory for the data files, or undefined for an in-memory database (tests). */
  dataDirectory?: string;
  /** Start from this dump of a data directory (tests start from a migrated template instead of initdb). */
  loadDataDir?: Blob;
  /** PostgreSQL's `shared_buffers` (default `PGLITE_SHARED_BUFFERS`); the `pglite-memory` benchmark compares others. */
  sharedBuffers?: string;
}

/**
 * PGlite's buffer cache (ADR 0429). PostgreSQL's default of 128MB is all resident as soon as PGlite opens (its
 * shared memory lives in the WebAssembly heap, written at start); 64MB keeps ~70 MB less for the life of the
 * process with no measured cost (an append, a `rag_search` at 20,000 chunks); 32MB and 16MB kept less still but
 * made that search 1.2× and 1.7× slower. A page not in the cache is read from the operating system's file cache.
 */
export const PGLITE_SHARED_BUFFERS = '64MB';

/** PGlite can also dump its data directory, which tests use to start from a migrated template. */
export interface PgliteDatabase extends Database {
  dumpDataDirectory(): Promise<Blob>;
}

/**
 * Creates the PGlite instance Forja uses, on whichever thread calls it (this one, or the database's worker
 * thread: `pglite-worker-database.ts`).
 */
export async function createPglite(options: PgliteDatabaseOptions): Promise<PGlite> {
  // Sums of bigint are numeric; Forja's sums are token counts, well within a double, so they arrive as numbers
  // on both engines.
  // pgvector is loaded so that the RAG index can use HNSW, unaccent so that search folds accents (migrations
  // 0005 and 0006 create the extensions when available).
  return PGlite.create(options.dataDirectory ?? 'memory://', {
    extensions: { vector, unaccent },
    // On the command line rather than in postgresql.conf: it holds for data directories made before it too.
    startParams: [
      ...PGlite.defaultStartParams,
      '-c',
      `shared_buffers=${options.sharedBuffers ?? PGLITE_SHARED_BUFFERS}`,
    ],
    parsers: { [NUMERIC_OID]: (value: string) => Number(value) },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
}

export function describePglite(options: PgliteDatabaseOptions): string {
  return options.dataDirectory
    ? `embedded PGlite at ${options.dataDirectory}`
    : 'embedded PGlite in memory';
}

/**
 * Opens PGlite, Postgres compiled to WebAssembly, on this thread: every statement holds the event loop while it
 * runs. `forja serve` opens it on a worker thread instead (`openPgliteWorkerDatabase`); tests and benchmarks
 * that want the plain engine use this one.
 */
export async function openPgliteDatabase(
  options: PgliteDatabaseOptions = {},
): Promise<PgliteDatabase> {
  const pglite = await createPglite(options);
  return {
    kind: 'pglite',
    dumpDataDirectory: () => pglite.dumpDataDir('none'),
    description: describePglite(options),
    query: (sql, params) => runQuery(pglite, sql, params),
    execute: async (script) => void (await pglite.exec(script)),
    transaction: (work) =>
      pglite.transaction((transaction) =>
        work({
          query: (sql, params) => runQuery(transaction, sql, params),
          execute: async (script) => void (await transaction.exec(script)),
        }),
      ),
    listen: async (channel, onNotification) => {
      // PGlite hands a NOTIFY to its listeners while the statement that sent it is still returning; heard a turn
      // of the event loop later, as from the server, the sender has its result first (and, for an append, has
      // given its events to this process's streams, which then have nothing to read: ADR 0210).
      let listening = true;
      const unsubscribe = await pglite.listen(channel, (payload) =>
        setImmediate(() => {
          if (listening) onNotification(payload);
        }),
      );
      return async () => {
        listening = false;
        await unsubscribe();
      };
    },
    close: () => pglite.close(),
  };
}

async function runQuery<Row>(
  target: Pick<PGlite, 'query'>,
  sql: string,
  params?: unknown[],
): Promise<QueryResult<Row>> {
  const result = await target.query<Row>(sql, params);
  return { rows: result.rows };
}
