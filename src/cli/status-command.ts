import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ForjaConfig } from '../config/config.ts';
import { DEFAULT_STALE_AFTER_MS } from '../gateway/index.ts';
import {
  DataDirectoryInUseError,
  openDatabase,
  readForjaStatus,
  type Database,
} from '../store/index.ts';
import { formatStatus } from './format-status.ts';

export interface StatusOptions {
  readonly json?: boolean;
}

/**
 * `forja status [--json]`: which Forja processes are alive, the outbox lag, the tokens reserved, and per
 * session what waits (messages, kickoffs) and what runs (turns). On a PostgreSQL server it reads while Forja
 * runs; an embedded data directory can be read only when no process holds it, and says so when one does.
 * Exit codes: 0 shown, 1 the status could not be read (the data directory is held, empty, or the database
 * cannot be opened).
 */
export async function runStatusCommand(
  options: StatusOptions,
  config: ForjaConfig,
  io: { stdout: (text: string) => void; stderr: (text: string) => void },
): Promise<number> {
  const embedded = config.databaseUrl === undefined;
  if (embedded && !existsSync(join(config.dataDirectory, 'pgdata'))) {
    io.stderr(
      `forja status: nothing is stored in the data directory ${config.dataDirectory} (no Forja has run on it). ` +
        'Set FORJA_DATA_DIR to the one Forja runs on, or DATABASE_URL to its PostgreSQL server.\n',
    );
    return 1;
  }
  let database: Database;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDirectory: config.dataDirectory,
      poolSize: 2,
    });
  } catch (error) {
    if (error instanceof DataDirectoryInUseError) return reportHeld(error, options, io);
    io.stderr(`forja status: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  try {
    const status = await readForjaStatus(database, { staleAfterMs: DEFAULT_STALE_AFTER_MS });
    const source = {
      description: database.description,
      ...(embedded ? { dataDirectory: config.dataDirectory } : {}),
    };
    io.stdout(
      options.json
        ? `${JSON.stringify(
            {
              readable: true,
              source: source.description,
              ...(embedded ? { data_directory: config.dataDirectory } : {}),
              ...status,
            },
            null,
            2,
          )}\n`
        : formatStatus(status, source),
    );
    return 0;
  } finally {
    await database.close();
  }
}

/** The embedded database belongs to the running process: say who runs, and how to see more. */
function reportHeld(
  error: DataDirectoryInUseError,
  options: StatusOptions,
  io: { stdout: (text: string) => void },
): number {
  const pid = error.holderProcessId;
  if (options.json) {
    io.stdout(
      `${JSON.stringify(
        {
          readable: false,
          database: 'pglite',
          data_directory: error.dataDirectory,
          held_by: { pid },
          reason: 'a running Forja process holds the embedded data directory',
        },
        null,
        2,
      )}\n`,
    );
    return 1;
  }
  io.stdout(
    `Forja is running on the data directory ${error.dataDirectory}${pid === null ? '' : ` (pid ${pid})`}.\n` +
      'Its embedded database belongs to that process while it runs, so `forja status` cannot read it from here: ' +
      'stop that process to read it, or run Forja on a PostgreSQL server (DATABASE_URL), where `forja status` ' +
      'works while it runs.\n',
  );
  return 1;
}
