import { join } from 'node:path';
import type { Database } from './database.ts';
import { lockDataDirectory } from './data-directory-lock.ts';
import { migrate } from './migrations/migrate.ts';
import { openPgliteWorkerDatabase } from './pglite-worker-database.ts';
import { startFromTemplate } from './pglite-template.ts';
import { openPostgresDatabase } from './postgres-database.ts';

export interface DatabaseSettings {
  /** When set, a PostgreSQL server; otherwise embedded PGlite under `dataDirectory`. */
  databaseUrl?: string | undefined;
  dataDirectory: string;
  /** Connections to the PostgreSQL server (default 10). */
  poolSize?: number;
  /** False: a new embedded database runs initdb even when `npm ci` left a migrated template (ADR 0425). */
  pgliteTemplate?: boolean;
}

/**
 * Opens the configured database and brings its schema up to date. The embedded directory is locked for this
 * process until `close()`.
 */
export async function openDatabase(settings: DatabaseSettings): Promise<Database> {
  if (settings.databaseUrl) {
    const database = await openPostgresDatabase({
      connectionString: settings.databaseUrl,
      ...(settings.poolSize === undefined ? {} : { maxConnections: settings.poolSize }),
    });
    await migrateOrClose(database);
    return database;
  }
  const lock = lockDataDirectory(settings.dataDirectory);
  try {
    const pgdata = join(settings.dataDirectory, 'pgdata');
    // A new data directory starts as a copy of the migrated template, not with initdb (ADR 0425).
    if (settings.pgliteTemplate !== false) startFromTemplate(pgdata);
    // PGlite runs on a worker thread: its statements never hold this thread's event loop (ADR 0215).
    const database = await openPgliteWorkerDatabase({ dataDirectory: pgdata });
    await migrateOrClose(database);
    return {
      ...database,
      close: async () => {
        try {
          await database.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function migrateOrClose(database: Database): Promise<void> {
  try {
    await migrate(database);
  } catch (error) {
    await database.close();
    throw error;
  }
}
