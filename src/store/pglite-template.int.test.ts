import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from './migrations/index.ts';
import { openDatabase } from './open-database.ts';
import {
  buildPgliteTemplate,
  pgliteTemplateDirectory,
  startFromTemplate,
} from './pglite-template.ts';
import { openPgliteWorkerDatabase } from './pglite-worker-database.ts';

/** The cluster's system identifier, as pg_control stores it (its first 8 bytes): a copy keeps it, initdb draws a new one. */
const systemIdOnDisk = (pgdata: string) =>
  readFileSync(join(pgdata, 'global', 'pg_control'))
    .readBigUInt64LE(0)
    .toString();

describe('a new embedded database starts from the migrated template', () => {
  const root = mkdtempSync(join(tmpdir(), 'forja-template-'));
  const template = join(root, 'template');
  beforeAll(async () => {
    expect(await buildPgliteTemplate(template)).toBe(true);
  }, 120_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is a copy of the template, migrated, its own (a write in one is not in the other), and used only when pgdata is new', async () => {
    expect(await buildPgliteTemplate(template)).toBe(false);
    const [first, second] = [join(root, 'one', 'pgdata'), join(root, 'two', 'pgdata')];
    for (const pgdata of [first, second]) {
      mkdirSync(join(pgdata, '..'), { recursive: true });
      expect(startFromTemplate(pgdata, template)).toBe(true);
      expect(systemIdOnDisk(pgdata)).toBe(systemIdOnDisk(template));
    }
    expect(startFromTemplate(first, template)).toBe(false);
    const one = await openPgliteWorkerDatabase({ dataDirectory: first });
    const two = await openPgliteWorkerDatabase({ dataDirectory: second });
    try {
      const applied = await one.query<{ n: number }>(
        'select count(*)::int as n from schema_migrations',
      );
      expect(applied.rows).toEqual([{ n: migrations.length }]);
      await one.query(`insert into projects (id, name) values (gen_random_uuid(), 'Padaria')`);
      expect((await one.query('select name from projects')).rows).toEqual([{ name: 'Padaria' }]);
      expect((await two.query('select name from projects')).rows).toEqual([]);
    } finally {
      await one.close();
      await two.close();
    }
    expect(existsSync(join(first, 'forja-template.json'))).toBe(false);
  }, 120_000);

  it('leaves a half-built template (no marker) alone: the database is made by initdb', async () => {
    const half = join(root, 'half');
    mkdirSync(half, { recursive: true });
    const pgdata = join(root, 'three', 'pgdata');
    mkdirSync(join(pgdata, '..'), { recursive: true });
    expect(startFromTemplate(pgdata, half)).toBe(false);
    expect(existsSync(pgdata)).toBe(false);
  });

  it('is what openDatabase starts a new data directory from, unless FORJA_PGLITE_TEMPLATE is off', async () => {
    const npmTemplate = pgliteTemplateDirectory();
    await buildPgliteTemplate(npmTemplate);
    for (const pgliteTemplate of [true, false]) {
      const dataDirectory = join(root, `served-${pgliteTemplate}`);
      const database = await openDatabase({ dataDirectory, pgliteTemplate });
      try {
        expect((await database.query('select 1 as ok')).rows).toEqual([{ ok: 1 }]);
      } finally {
        await database.close();
      }
      const same = systemIdOnDisk(join(dataDirectory, 'pgdata')) === systemIdOnDisk(npmTemplate);
      expect(same).toBe(pgliteTemplate);
    }
  }, 120_000);
});
