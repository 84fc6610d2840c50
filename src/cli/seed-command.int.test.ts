import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresGraphStore, readCurrentTemplate } from '../memory/index.ts';
import type { Database } from '../store/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { runSeedCommand } from './seed-command.ts';

describe.each(testDatabaseEngines())('forja seed on $name', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(() => database.close());

  async function seed(template: string[] = [], files: Record<string, string> = {}) {
    let stdout = '';
    let stderr = '';
    const code = await runSeedCommand({ template }, database, {
      readFile: async (path) => {
        if (files[path] === undefined) throw new Error('ENOENT: no such file');
        return files[path]!;
      },
      stdout: (text) => void (stdout += text),
      stderr: (text) => void (stderr += text),
    });
    return { code, stdout, stderr };
  }

  it('creates the first batch once, changes nothing when run again, and makes a new version of a new body', async () => {
    expect(await seed()).toEqual({
      code: 0,
      stdout:
        'psicologo-kickoff: created v1\nanamnese-kickoff: created v1\ncontext-manager-summarize: created v1\n',
      stderr: '',
    });
    expect((await seed()).stdout).toBe(
      'psicologo-kickoff: unchanged (v1)\nanamnese-kickoff: unchanged (v1)\ncontext-manager-summarize: unchanged (v1)\n',
    );
    const changed = await seed(['psicologo-kickoff=novo.md'], { 'novo.md': 'Instruções novas' });
    expect(changed.stdout.split('\n').at(-2)).toBe('psicologo-kickoff: new version v2');
    const graph = createPostgresGraphStore(database);
    expect(await readCurrentTemplate(graph, 'psicologo-kickoff')).toEqual({
      name: 'psicologo-kickoff',
      version: 2,
      body: 'Instruções novas',
    });
    expect((await readCurrentTemplate(graph, 'context-manager-summarize'))?.version).toBe(1);
    expect(await readCurrentTemplate(graph, 'never-seeded')).toBeNull();
  });

  it('never gives one body two versions when seeders run at once', async () => {
    await Promise.all(
      [1, 2, 3].map(() => seed(['raced-template=body.md'], { 'body.md': 'the same body' })),
    );
    expect(await readCurrentTemplate(createPostgresGraphStore(database), 'raced-template')).toEqual(
      { name: 'raced-template', version: 1, body: 'the same body' },
    );
  });

  it('refuses a malformed --template, an unreadable file or a bad name with exit code 2, writing nothing', async () => {
    expect(await seed(['no-equals'])).toMatchObject({
      code: 2,
      stderr: "forja seed: --template 'no-equals': must be name=file\n",
    });
    expect(await seed(['x=missing.md'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('cannot read missing.md'),
    });
    expect(await seed(['Bad Name=ok.md'], { 'ok.md': 'x' })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('template name "Bad Name"'),
    });
    expect(await seed(['empty-body=e.md'], { 'e.md': '  ' })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('empty body'),
    });
    expect(await readCurrentTemplate(createPostgresGraphStore(database), 'empty-body')).toBeNull();
  });
});
