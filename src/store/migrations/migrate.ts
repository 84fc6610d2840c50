import type { Database } from '../database.ts';
import { migrations as allMigrations } from './index.ts';
import type { Migration } from './migration.ts';

/** An arbitrary constant shared by every Forja process: the advisory lock that serialises migrations. */
const MIGRATION_LOCK_KEY = 7_460_215_301;

/**
 * Applies the migrations not yet applied, all in one transaction, under a transaction-scoped advisory lock so
 * that processes starting together against one server apply each migration exactly once.
 * Returns the versions this call applied.
 */
export async function migrate(
  database: Database,
  migrations: readonly Migration[] = allMigrations,
): Promise<number[]> {
  return database.transaction(async (transaction) => {
    await transaction.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await transaction.query(`
      create table if not exists schema_migrations (
        version integer primary key,
        name text not null,
        applied_at timestamptz not null default now()
      )`);
    const applied = await transaction.query<{ version: number }>(
      'select version from schema_migrations',
    );
    const appliedVersions = new Set(applied.rows.map((row) => row.version));
    const pending = [...migrations]
      .sort((a, b) => a.version - b.version)
      .filter((m) => !appliedVersions.has(m.version));
    for (const migration of pending) {
      await transaction.execute(migration.sql);
      await transaction.query('insert into schema_migrations (version, name) values ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    }
    return pending.map((migration) => migration.version);
  });
}
