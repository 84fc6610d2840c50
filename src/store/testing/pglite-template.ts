import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../database.ts';
import { migrate } from '../migrations/migrate.ts';
import { openPgliteDatabase, type PgliteDatabaseOptions } from '../pglite-database.ts';
import { openPgliteWorkerDatabase } from '../pglite-worker-database.ts';
import { pgliteTemplateFingerprint } from '../pglite-template.ts';

/**
 * A fresh, migrated in-memory PGlite for a test. Creating PGlite runs initdb (seconds); loading a dumped data
 * directory does not. The first test process dumps a migrated database to a file named by the migrations'
 * content, and every later one starts from it. The file is written then renamed, so parallel test
 * processes never read half a template.
 *
 * `FORJA_TEST_PGLITE_THREAD=worker` runs the tests' PGlite on a worker thread, as `forja serve` does
 * (ADR 0215); by default it runs on the test's own thread.
 */
export async function openMigratedPglite(): Promise<Database> {
  const templatePath = join(tmpdir(), `forja-pglite-template-${pgliteTemplateFingerprint()}.tar`);
  if (existsSync(templatePath)) {
    const database = await openPglite({
      loadDataDir: new Blob([readFileSync(templatePath)]),
    });
    await migrate(database);
    return database;
  }
  const database = await openPglite();
  await migrate(database);
  const dump = Buffer.from(await (await database.dumpDataDirectory()).arrayBuffer());
  const partial = `${templatePath}.${process.pid}.partial`;
  writeFileSync(partial, dump);
  renameSync(partial, templatePath);
  return database;
}

function openPglite(options: PgliteDatabaseOptions = {}) {
  return process.env.FORJA_TEST_PGLITE_THREAD === 'worker'
    ? openPgliteWorkerDatabase(options)
    : openPgliteDatabase(options);
}
