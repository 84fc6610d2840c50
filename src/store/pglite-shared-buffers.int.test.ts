import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './open-database.ts';
import { openPgliteDatabase } from './pglite-database.ts';

const sharedBuffers = async (database: { query<Row>(sql: string): Promise<{ rows: Row[] }> }) =>
  (await database.query<{ shared_buffers: string }>('show shared_buffers')).rows[0]?.shared_buffers;

describe("PGlite's buffer cache (ADR 0429)", () => {
  const root = mkdtempSync(join(tmpdir(), 'forja-shared-buffers-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is 64MB in the database openDatabase opens, new or existing, whatever its postgresql.conf says', async () => {
    const dataDirectory = join(root, 'data');
    for (const opening of ['new', 'existing']) {
      const database = await openDatabase({ dataDirectory });
      try {
        expect(await sharedBuffers(database), opening).toBe('64MB');
      } finally {
        await database.close();
      }
    }
    // The data directory's own file keeps PostgreSQL's default: the setting is PGlite's start parameter.
    const conf = readFileSync(join(dataDirectory, 'pgdata', 'postgresql.conf'), 'utf8');
    expect(conf).toMatch(/^shared_buffers = 128MB/m);
  }, 120_000);

  it('is what a benchmark asks for, in memory too', async () => {
    const asked = await openPgliteDatabase({ sharedBuffers: '8MB' });
    try {
      expect(await sharedBuffers(asked)).toBe('8MB');
    } finally {
      await asked.close();
    }
  }, 120_000);
});
