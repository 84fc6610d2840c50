import { readFile } from 'node:fs/promises';
import type { ForjaConfig } from '../config/config.ts';
import { openDatabase, readAgentInstructions, type Database } from '../store/index.ts';
import { runContextCommand, type ContextCommandOptions } from './context-command.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `forja context`: the harness's debug view. With `--project`, the agent's instruction patch is read from
 * the configured database (which, embedded, must not be held by a running server).
 */
export async function runContextCommandWithDatabase(
  options: ContextCommandOptions,
  config: ForjaConfig,
  io: { stdout: (text: string) => void; stderr: (text: string) => void; env?: NodeJS.ProcessEnv },
): Promise<number> {
  const io2 = {
    readFile: (path: string) => readFile(path, 'utf8'),
    stdout: io.stdout,
    stderr: io.stderr,
    ...(io.env === undefined ? {} : { env: io.env }),
  };
  if (options.project === undefined) return runContextCommand(options, io2);
  if (!UUID.test(options.project)) {
    io.stderr(`forja context: --project '${options.project}': must be a project id (a UUID)\n`);
    return 2;
  }
  let database: Database;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDirectory: config.dataDirectory,
      poolSize: config.databasePoolSize,
      pgliteTemplate: config.pgliteTemplate,
    });
  } catch (error) {
    io.stderr(`forja context: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  try {
    const patchSource = {
      readPatch: async (projectId: string, agent: string) =>
        (await readAgentInstructions(database, projectId, agent))?.content ?? null,
    };
    return await runContextCommand(options, { ...io2, patchSource });
  } finally {
    await database.close();
  }
}
