import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createForja, type Forja } from '../../composition.ts';
import { loadConfig } from '../../config/config.ts';
import { createScriptedProvider } from '../../gateway/providers/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson } from '../../testing/forja-harness.ts';
import { MAX_DIFF_BYTES, workspaceDirectory } from '../../workspace/index.ts';

/** A real repository at the project's workspace, made here with the git CLI (no Forja code). */
function git(repository: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: repository,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: '/nonexistent',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Dev Catalogo',
      GIT_AUTHOR_EMAIL: 'dev@localhost',
      GIT_COMMITTER_NAME: 'Dev Catalogo',
      GIT_COMMITTER_EMAIL: 'dev@localhost',
    },
  }).trim();
}

describe.each(testDatabaseEngines())(
  'GET /api/projects/:id/commits/:sha/diff on $name',
  (engine) => {
    let forja: Forja;
    let close: () => Promise<void>;
    let projectId: string;
    let otherProjectId: string;
    let first: string;
    let second: string;
    let big: string;
    let merge: string;

    beforeAll(async () => {
      const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-commits-'));
      const loaded = loadConfig({ FORJA_DATA_DIR: dataDirectory });
      if (!loaded.ok) throw new Error(loaded.error.message);
      const database = await engine.open();
      forja = await createForja(loaded.config, pino({ level: 'silent' }), {
        env: {},
        database,
        provider: createScriptedProvider({ script: { turns: [] } }),
      });
      close = async () => {
        await forja.close();
        await database.close();
        await rm(dataDirectory, { recursive: true, force: true });
      };
      projectId = (await requestJson(forja, 'POST', '/api/projects', { name: 'Loja' })).body.id;
      otherProjectId = (await requestJson(forja, 'POST', '/api/projects', { name: 'Outra' })).body
        .id;

      const repository = workspaceDirectory(dataDirectory, projectId);
      await mkdir(join(repository, 'src'), { recursive: true });
      git(repository, 'init', '-q', '-b', 'main');
      await writeFile(join(repository, 'src/catalogo.ts'), 'export const itens = [];\n');
      await writeFile(join(repository, 'README.md'), '# Loja\n');
      git(repository, 'add', '-A');
      git(repository, 'commit', '-q', '-m', 'AT-1: catalogo');
      first = git(repository, 'rev-parse', 'HEAD');
      await writeFile(
        join(repository, 'src/catalogo.ts'),
        "export const itens = ['pão'];\nexport const total = 1;\n",
      );
      await writeFile(join(repository, 'logo.bin'), Buffer.from([0, 1, 2, 0, 255]));
      git(repository, 'rm', '-q', 'README.md');
      git(repository, 'add', '-A');
      git(repository, 'commit', '-q', '-m', 'AT-2: itens', '-m', 'Com pão.');
      second = git(repository, 'rev-parse', 'HEAD');
      // Longer than the bound: 40,000 lines of 20 bytes.
      await writeFile(
        join(repository, 'src/grande.ts'),
        Array.from({ length: 40_000 }, (_, at) => `// linha ${String(at).padStart(8, '0')}\n`).join(
          '',
        ),
      );
      git(repository, 'add', '-A');
      git(repository, 'commit', '-q', '-m', 'AT-3: grande');
      big = git(repository, 'rev-parse', 'HEAD');
      // A merge commit: its diff is what it brought to its first parent.
      git(repository, 'checkout', '-q', '-b', 'dev-entrega', first);
      await writeFile(join(repository, 'src/entrega.ts'), 'export const rota = 1;\n');
      git(repository, 'add', '-A');
      git(repository, 'commit', '-q', '-m', 'AT-4: entrega');
      git(repository, 'checkout', '-q', 'main');
      git(repository, 'merge', '-q', '--no-ff', '-m', 'Merge dev-entrega', 'dev-entrega');
      merge = git(repository, 'rev-parse', 'HEAD');
    }, 60_000);
    afterAll(() => close?.());

    it('answers a commit by its full or short id: who, when, its files with +/- counts and the patch', async () => {
      const full = await requestJson(
        forja,
        'GET',
        `/api/projects/${projectId}/commits/${second}/diff`,
      );
      expect(full.status).toBe(200);
      expect(full.body).toMatchObject({
        sha: second,
        parents: [first],
        author: 'Dev Catalogo',
        subject: 'AT-2: itens',
        body: 'Com pão.',
        truncated: false,
        files_truncated: false,
        max_bytes: MAX_DIFF_BYTES,
      });
      // In git's order (bytes): upper case first.
      expect(full.body.files).toEqual([
        { path: 'README.md', old_path: null, additions: 0, deletions: 1 },
        { path: 'logo.bin', old_path: null, additions: null, deletions: null },
        { path: 'src/catalogo.ts', old_path: null, additions: 2, deletions: 1 },
      ]);
      expect(full.body.patch).toContain('diff --git a/src/catalogo.ts b/src/catalogo.ts');
      expect(full.body.patch).toContain("+export const itens = ['pão'];");
      expect(full.body.patch).toContain('-export const itens = [];');
      expect(full.body.patch).toContain('-# Loja');

      const short = await requestJson(
        forja,
        'GET',
        `/api/projects/${projectId}/commits/${second.slice(0, 7).toUpperCase()}/diff`,
      );
      expect(short.status).toBe(200);
      expect(short.body.sha).toBe(second);

      // The first commit: everything it added.
      const root = await requestJson(
        forja,
        'GET',
        `/api/projects/${projectId}/commits/${first}/diff`,
      );
      expect(root.body.parents).toEqual([]);
      expect(root.body.patch).toContain('+export const itens = [];');
    });

    it('answers a merge commit with what it brought to its first parent', async () => {
      const answer = await requestJson(
        forja,
        'GET',
        `/api/projects/${projectId}/commits/${merge}/diff`,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.parents).toEqual([big, expect.stringMatching(/^[0-9a-f]{40}$/)]);
      expect(answer.body.files).toEqual([
        { path: 'src/entrega.ts', old_path: null, additions: 1, deletions: 0 },
      ]);
      expect(answer.body.patch).toContain('+export const rota = 1;');
    });

    it('cuts a diff longer than the bound at a line end and says so', async () => {
      const answer = await requestJson(
        forja,
        'GET',
        `/api/projects/${projectId}/commits/${big}/diff`,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.truncated).toBe(true);
      expect(Buffer.byteLength(answer.body.patch)).toBeLessThanOrEqual(MAX_DIFF_BYTES);
      expect(Buffer.byteLength(answer.body.patch)).toBeGreaterThan(MAX_DIFF_BYTES - 100);
      expect(answer.body.patch.endsWith('\n')).toBe(true);
      expect(answer.body.patch.split('\n').at(-2)).toMatch(/^\+\/\/ linha \d{8}$/);
      // The counts come whole: they are not part of the bounded patch.
      expect(answer.body.files).toEqual([
        { path: 'src/grande.ts', old_path: null, additions: 40_000, deletions: 0 },
      ]);
    });

    it('answers 400 naming sha for an id that is not 7 to 40 hex characters', async () => {
      for (const sha of [
        'abc',
        'zzzzzzz',
        `${second}0`,
        '--output=x',
        'HEAD',
        'main',
        '%00abcdef0',
      ]) {
        const answer = await requestJson(
          forja,
          'GET',
          `/api/projects/${projectId}/commits/${sha}/diff`,
        );
        expect(answer.status, sha).toBe(400);
        expect(answer.body.error, sha).toMatchObject({ code: 'invalid_field', field: 'sha' });
      }
    });

    it("answers 404 for a commit that is not in that project's repository, and for a project without one", async () => {
      const unknown = await requestJson(
        forja,
        'GET',
        `/api/projects/${projectId}/commits/${'0'.repeat(40)}/diff`,
      );
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toMatchObject({ code: 'not_found', field: 'sha' });
      const elsewhere = await requestJson(
        forja,
        'GET',
        `/api/projects/${otherProjectId}/commits/${second}/diff`,
      );
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.body.error.field).toBe('sha');
      const noProject = await requestJson(
        forja,
        'GET',
        `/api/projects/00000000-0000-4000-8000-000000000000/commits/${second}/diff`,
      );
      expect(noProject.status).toBe(404);
      expect(noProject.body.error.field).toBe('id');
    });
  },
);
