import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { migrate } from './migrations/migrate.ts';
import { migrations } from './migrations/index.ts';
import { openPgliteWorkerDatabase } from './pglite-worker-database.ts';

/** Written last into a finished template: a directory without it is not one (ADR 0425). */
const MARKER = 'forja-template.json';

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * What a template must match to be used: the PGlite and pgvector versions (pinned in package.json) and every
 * migration's content. Another version gets another directory, so a stale template is never loaded.
 */
export function pgliteTemplateFingerprint(packageRoot = PACKAGE_ROOT): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const hash = createHash('sha256');
  for (const name of ['@electric-sql/pglite', '@electric-sql/pglite-pgvector'])
    hash.update(`${name}@${manifest.dependencies?.[name] ?? '?'}\0`);
  for (const migration of migrations)
    hash.update(`${migration.version}\0${migration.name}\0${migration.sql}\0`);
  return hash.digest('hex').slice(0, 16);
}

/** Where `npm ci` leaves the migrated template this package's version of Forja starts new data directories from. */
export function pgliteTemplateDirectory(packageRoot = PACKAGE_ROOT): string {
  return join(
    packageRoot,
    'node_modules',
    '.cache',
    'forja',
    `pglite-${pgliteTemplateFingerprint(packageRoot)}`,
  );
}

/**
 * Builds the template at `directory` (nothing when one is there): PGlite's initdb and every migration, closed
 * cleanly, then renamed into place whole, so a reader sees a finished template or none.
 */
export async function buildPgliteTemplate(directory = pgliteTemplateDirectory()): Promise<boolean> {
  if (isTemplate(directory)) return false;
  const partial = `${directory}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(dirname(partial), { recursive: true });
  const database = await openPgliteWorkerDatabase({ dataDirectory: partial });
  try {
    await migrate(database);
  } finally {
    await database.close();
  }
  writeFileSync(join(partial, MARKER), JSON.stringify({ built_at: new Date().toISOString() }));
  try {
    renameSync(partial, directory);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (!isTemplate(directory)) throw error;
  }
  return true;
}

/**
 * Starts a new embedded database at `pgdata` from the template, when there is no database there yet and a
 * finished template exists: a copy of a few files in place of initdb's seconds. The copy is made beside
 * `pgdata` and renamed into place, so a crash leaves no half database. Says whether it did.
 */
export function startFromTemplate(pgdata: string, template = pgliteTemplateDirectory()): boolean {
  if (existsSync(pgdata) || !isTemplate(template)) return false;
  const partial = `${pgdata}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  try {
    cpSync(template, partial, { recursive: true, verbatimSymlinks: true });
    rmSync(join(partial, MARKER));
    renameSync(partial, pgdata);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
  return true;
}

function isTemplate(directory: string): boolean {
  return existsSync(join(directory, MARKER)) && existsSync(join(directory, 'PG_VERSION'));
}
