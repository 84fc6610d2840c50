import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Database } from './database.ts';
import { DataDirectoryMismatchError } from './errors/data-directory-mismatch-error.ts';

/** The file in a data directory that names it: `{"id": "<uuid>"}`. It moves with the directory. */
export const DATA_DIRECTORY_ID_FILE = 'forja-data-directory.json';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The data directory's id, or null when it has none yet; a file that is not ours is refused with the reason. */
export function readDataDirectoryId(dataDirectory: string): string | null {
  const file = join(dataDirectory, DATA_DIRECTORY_ID_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const id = (() => {
    try {
      return (JSON.parse(text) as { id?: unknown }).id;
    } catch {
      return undefined;
    }
  })();
  if (typeof id !== 'string' || !UUID.test(id))
    throw new DataDirectoryMismatchError(
      `${file} is not a Forja data directory id (expected {"id": "<uuid>"}); restore it from the directory's backup.`,
    );
  return id;
}

/** The directory's id, written now (exclusively: of two processes starting on it at once, one writes) if missing. */
function dataDirectoryId(dataDirectory: string): string {
  const existing = readDataDirectoryId(dataDirectory);
  if (existing !== null) return existing;
  mkdirSync(dataDirectory, { recursive: true });
  try {
    writeFileSync(
      join(dataDirectory, DATA_DIRECTORY_ID_FILE),
      `${JSON.stringify({ id: randomUUID() })}\n`,
      { flag: 'wx', mode: 0o644 },
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readDataDirectoryId(dataDirectory)!;
}

interface RecordedDirectory {
  directory_id: string;
  path: string;
  host: string;
  recorded_at: Date;
}

/**
 * Makes sure this process serves the repositories of the database's projects (ADR 0316): the database records
 * one data directory by the id in its `forja-data-directory.json`. The first process records its own; every
 * later one must run on a directory with that id — the same directory, a shared mount of it, or the directory
 * moved whole to another path (the record then follows it). Any other is refused with
 * `DataDirectoryMismatchError`, naming the recorded directory and how to move one deliberately.
 */
export async function claimDataDirectory(database: Database, dataDirectory: string): Promise<void> {
  const id = dataDirectoryId(dataDirectory);
  const host = hostname();
  const recorded = await database.transaction(async (transaction) => {
    await transaction.query(
      'insert into forja_data_directory (directory_id, path, host) values ($1, $2, $3) on conflict (singleton) do nothing',
      [id, dataDirectory, host],
    );
    const found = await transaction.query<RecordedDirectory>(
      'select directory_id, path, host, recorded_at from forja_data_directory for update',
    );
    const row = found.rows[0]!;
    if (row.directory_id === id && (row.path !== dataDirectory || row.host !== host))
      await transaction.query('update forja_data_directory set path = $1, host = $2', [
        dataDirectory,
        host,
      ]);
    return row;
  });
  if (recorded.directory_id === id) return;
  throw new DataDirectoryMismatchError(
    `this database's projects keep their repositories in the data directory ${recorded.path} on ${recorded.host} ` +
      `(id ${recorded.directory_id}), and FORJA_DATA_DIR=${dataDirectory} is another directory ` +
      `(its ${DATA_DIRECTORY_ID_FILE} names id ${id}). ` +
      `Set FORJA_DATA_DIR to ${recorded.path} (several machines share it through one mount), or move it: stop every Forja, ` +
      `move the whole directory and start with FORJA_DATA_DIR at its new place (docs/operations.md, "One data directory per database").`,
  );
}
