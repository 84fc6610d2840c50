import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimDataDirectory,
  DATA_DIRECTORY_ID_FILE,
  readDataDirectoryId,
} from './data-directory-identity.ts';
import type { Database } from './database.ts';
import { DataDirectoryMismatchError } from './errors/data-directory-mismatch-error.ts';
import { testDatabaseEngines } from './testing/test-databases.ts';

const newDirectory = () => join(mkdtempSync(join(tmpdir(), 'forja-identity-')), 'data');
const recorded = async (database: Database) =>
  (
    await database.query<{ directory_id: string; path: string }>(
      'select directory_id, path from forja_data_directory',
    )
  ).rows;

describe.each(testDatabaseEngines())('one data directory per database, on $name', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(() => database.close());

  it('records the first directory, accepts it again and after a move, refuses any other with the reason', async () => {
    const first = newDirectory();
    await claimDataDirectory(database, first);
    const id = readDataDirectoryId(first);
    expect(await recorded(database)).toEqual([{ directory_id: id, path: first }]);
    await claimDataDirectory(database, first);

    const other = newDirectory();
    const refusal = claimDataDirectory(database, other);
    await expect(refusal).rejects.toBeInstanceOf(DataDirectoryMismatchError);
    await expect(refusal).rejects.toThrow(
      `this database's projects keep their repositories in the data directory ${first} on `,
    );
    await expect(refusal).rejects.toThrow(`FORJA_DATA_DIR=${other} is another directory`);
    expect(await recorded(database)).toEqual([{ directory_id: id, path: first }]);

    // A deliberate move: the whole directory, its id file with it, to a new path.
    const moved = join(mkdtempSync(join(tmpdir(), 'forja-identity-')), 'moved');
    renameSync(first, moved);
    await claimDataDirectory(database, moved);
    expect(await recorded(database)).toEqual([{ directory_id: id, path: moved }]);
    await expect(claimDataDirectory(database, first)).rejects.toThrow(
      `keep their repositories in the data directory ${moved} on `,
    );
  });

  it('of processes starting at once on two directories, exactly one is accepted', async () => {
    const fresh = await engine.open();
    try {
      const directories = [newDirectory(), newDirectory(), newDirectory()];
      const outcomes = await Promise.allSettled(
        directories.map((directory) => claimDataDirectory(fresh, directory)),
      );
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      for (const outcome of outcomes)
        if (outcome.status === 'rejected')
          expect(outcome.reason).toBeInstanceOf(DataDirectoryMismatchError);
      expect(await recorded(fresh)).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });

  it('refuses an id file that is not one, naming it', async () => {
    const directory = newDirectory();
    await claimDataDirectory(database, directory).catch(() => undefined);
    writeFileSync(join(directory, DATA_DIRECTORY_ID_FILE), '{"id": "../../etc"}');
    await expect(claimDataDirectory(database, directory)).rejects.toThrow(
      `${join(directory, DATA_DIRECTORY_ID_FILE)} is not a Forja data directory id`,
    );
  });
});
