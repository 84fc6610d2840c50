import type { ForjaConfig } from '../config/config.ts';
import { openDatabase, type Database } from '../store/index.ts';

/**
 * Runs a command on the configured database (embedded: not while `forja serve` holds it), closing it after.
 * A database that cannot be opened is exit code 1 with the reason.
 */
export async function withConfiguredDatabase(
  config: ForjaConfig,
  command: string,
  io: { stderr: (text: string) => void },
  run: (database: Database) => Promise<number>,
): Promise<number> {
  let database: Database;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDirectory: config.dataDirectory,
      poolSize: config.databasePoolSize,
      pgliteTemplate: config.pgliteTemplate,
    });
  } catch (error) {
    io.stderr(`forja ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  try {
    return await run(database);
  } finally {
    await database.close();
  }
}
