import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitAt } from './git/git-at.ts';
import { createProjectWorkspaces, type ProjectWorkspaces } from './project-workspaces.ts';

const PROJECT = '0193b7a4-8a5e-7cc1-9d8a-2b1f3c4d5e70';

describe('the line on one repository: docs on dev, merges one at a time, dev into main', () => {
  let dataDirectory: string;
  let workspaces: ProjectWorkspaces;
  beforeEach(async () => {
    dataDirectory = await mkdtemp(join(tmpdir(), 'forja-line-merges-'));
    workspaces = createProjectWorkspaces({ dataDirectory });
  });
  afterEach(() => rm(dataDirectory, { recursive: true, force: true }));
  const git = () => gitAt(workspaces.workspaceDirectory(PROJECT));
  const tip = async (ref: string) => (await git().raw(['rev-parse', ref])).trim();

  /** A module's worktree with one file committed on its branch. */
  const finish = async (module: string, path = `src/${module}.ts`) => {
    const worktree = await workspaces.ensureWorktree(PROJECT, module);
    await mkdir(join(worktree.directory, 'src'), { recursive: true });
    await writeFile(join(worktree.directory, path), `export const modulo = '${module}';\n`);
    const committed = await workspaces.commitModule(PROJECT, module, `${module}: feito`);
    if (!committed.ok) throw new Error(committed.reason);
  };

  it('makes a new worktree from dev after dev took the docs/ Forja wrote on main', async () => {
    await workspaces.commitToMain(
      PROJECT,
      [{ path: 'docs/module-map.md', content: '# Module map — version 1\n' }],
      'docs: module map v1',
    );
    const first = await workspaces.ensureWorktree(PROJECT, 'catalogo');
    expect(await readFile(join(first.directory, 'docs/module-map.md'), 'utf8')).toBe(
      '# Module map — version 1\n',
    );
    // dev had nothing of its own: it moved to main, no merge commit.
    expect(await tip('dev')).toBe(await tip('main'));

    // Later docs reach worktrees made later, through a merge once dev has commits of its own.
    await finish('catalogo');
    await workspaces.mergeModule(PROJECT, 'catalogo', async () => ({ passed: true, report: null }));
    await workspaces.commitToMain(
      PROJECT,
      [{ path: 'docs/module-contracts.md', content: '# Module contracts — version 2\n' }],
      'docs: contracts v2',
    );
    const later = await workspaces.ensureWorktree(PROJECT, 'pedidos');
    expect(await readFile(join(later.directory, 'docs/module-contracts.md'), 'utf8')).toBe(
      '# Module contracts — version 2\n',
    );
    expect(existsSync(join(later.directory, 'src/catalogo.ts'))).toBe(true);
    expect((await git().raw(['log', '-1', '--format=%s', 'dev'])).trim()).toBe(
      'Merge main (docs) into dev',
    );
    // A worktree made before keeps the dev it started from.
    expect(existsSync(join(first.directory, 'docs/module-contracts.md'))).toBe(false);
  });

  it.each([
    ['catalogo', 'pedidos'],
    ['pedidos', 'catalogo'],
  ])(
    'merges two modules finishing at once one after the other (%s asked first), each onto the dev the other left',
    async (first, second) => {
      await finish('catalogo');
      await finish('pedidos');
      const base = await tip('dev');
      const seen: string[] = [];
      // Each check holds the scratch worktree for a while and looks at what it has: without the project's lock
      // the other merge would remove or replace it meanwhile, or move dev under it.
      const check = (module: string) => async (scratch: string) => {
        seen.push(`${module}:start`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        const files = ['catalogo', 'pedidos'].filter((name) =>
          existsSync(join(scratch, `src/${name}.ts`)),
        );
        seen.push(`${module}:end`);
        return { passed: true, report: files };
      };
      const [a, b] = await Promise.all([
        workspaces.mergeModule(PROJECT, first, check(first)),
        workspaces.mergeModule(PROJECT, second, check(second)),
      ]);
      expect(seen).toEqual([`${first}:start`, `${first}:end`, `${second}:start`, `${second}:end`]);
      expect(a).toMatchObject({ outcome: 'merged', report: [first] });
      expect(b).toMatchObject({ outcome: 'merged', report: ['catalogo', 'pedidos'] });
      const head = await tip('dev');
      expect(head).toBe((b as { commit: string }).commit);
      expect((await git().raw(['rev-list', '--parents', '-1', head])).trim().split(' ')).toEqual([
        head,
        (a as { commit: string }).commit,
        await tip(`dev-${second}`),
      ]);
      expect(
        (await git().raw(['rev-list', '--parents', '-1', (a as { commit: string }).commit]))
          .trim()
          .split(' '),
      ).toEqual([(a as { commit: string }).commit, base, await tip(`dev-${first}`)]);
      expect(existsSync(join(dataDirectory, 'projects', PROJECT, 'integration'))).toBe(false);
    },
  );

  it("makes a dev's commit and a new worktree asked during a merge wait until the merge is done", async () => {
    await finish('catalogo');
    const pedidos = await workspaces.ensureWorktree(PROJECT, 'pedidos');
    await mkdir(join(pedidos.directory, 'src'), { recursive: true });
    await writeFile(join(pedidos.directory, 'src/pedidos.ts'), 'export {};\n');
    const seen: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = () => {};
    const checking = new Promise<void>((resolve) => {
      started = resolve;
    });
    const merge = workspaces.mergeModule(PROJECT, 'catalogo', async () => {
      started();
      await held;
      seen.push('check done');
      return { passed: true, report: null };
    });
    await checking;
    const commit = workspaces
      .commitModule(PROJECT, 'pedidos', 'pedidos: feito')
      .then((outcome) => seen.push(`commit ${outcome.ok}`));
    const worktree = workspaces
      .ensureWorktree(PROJECT, 'entrega')
      .then(() => seen.push('worktree made'));
    // Both are queued behind the merge, however long the check takes: without the lock they would be done
    // well before it is released.
    setTimeout(release, 200);
    await Promise.all([merge, commit, worktree]);
    expect(seen).toEqual(['check done', 'commit true', 'worktree made']);
    // The worktree made after the merge starts from the dev it left.
    expect(
      existsSync(join(dataDirectory, 'projects', PROJECT, 'worktrees/entrega/src/catalogo.ts')),
    ).toBe(true);
  });

  it('leaves dev where it was when the integration check fails, and merges once fixed', async () => {
    await finish('catalogo');
    const before = await tip('dev');
    expect(
      await workspaces.mergeModule(PROJECT, 'catalogo', async () => ({
        passed: false,
        report: 'exit 1',
      })),
    ).toMatchObject({ outcome: 'check_failed', report: 'exit 1' });
    expect(await tip('dev')).toBe(before);
    expect(
      await workspaces.mergeModule(PROJECT, 'catalogo', async () => ({ passed: true, report: 0 })),
    ).toMatchObject({ outcome: 'merged' });
    expect(await tip('dev')).not.toBe(before);
  });

  it('merges modules ready together in one scratch, one merge commit each, checked once on the last; a failing check or a conflict moves nothing', async () => {
    await finish('catalogo');
    await finish('pedidos');
    const before = await tip('dev');
    const failing = await workspaces.mergeModules(PROJECT, ['catalogo', 'pedidos'], async () => ({
      passed: false,
      report: 'exit 1',
    }));
    expect(failing.outcome).toBe('not_merged');
    expect(await tip('dev')).toBe(before);

    const checked: string[][] = [];
    const merged = await workspaces.mergeModules(
      PROJECT,
      ['catalogo', 'pedidos'],
      async (scratch) => {
        checked.push(
          ['catalogo', 'pedidos'].filter((name) => existsSync(join(scratch, `src/${name}.ts`))),
        );
        return { passed: true, report: 'ok' };
      },
    );
    expect(checked).toEqual([['catalogo', 'pedidos']]);
    if (merged.outcome !== 'merged') throw new Error('not merged');
    const [first, second] = merged.commits;
    expect(await tip('dev')).toBe(second);
    // Each a real merge commit of its module's branch, the second onto the first.
    expect((await git().raw(['log', '-1', '--format=%P %s', first!])).trim()).toBe(
      `${before} ${await tip('dev-catalogo')} Merge dev-catalogo into dev`,
    );
    expect((await git().raw(['log', '-1', '--format=%P %s', second!])).trim()).toBe(
      `${first} ${await tip('dev-pedidos')} Merge dev-pedidos into dev`,
    );

    // Two modules that wrote the same file: nothing moves, and one by one says which.
    await finish('estoque', 'src/shared.ts');
    await finish('entrega', 'src/shared.ts');
    const conflict = await workspaces.mergeModules(PROJECT, ['estoque', 'entrega'], async () => ({
      passed: true,
      report: null,
    }));
    expect(conflict.outcome).toBe('not_merged');
    expect(await tip('dev')).toBe(second);
  });

  it('merges dev into main with a real merge commit, finds that merge again, and refuses a conflict leaving main as it was', async () => {
    await workspaces.commitToMain(
      PROJECT,
      [{ path: 'docs/module-map.md', content: 'v1\n' }],
      'docs: v1',
    );
    await finish('catalogo');
    await workspaces.mergeModule(PROJECT, 'catalogo', async () => ({ passed: true, report: null }));
    await workspaces.commitToMain(
      PROJECT,
      [{ path: 'docs/module-map.md', content: 'v2\n' }],
      'docs: v2',
    );
    const dev = await workspaces.integrationHead(PROJECT);
    const mainBefore = await tip('main');
    const merged = await workspaces.mergeIntoMain(PROJECT, dev, 'Merge dev into main');
    expect(merged).toMatchObject({ ok: true, recovered: false });
    const commit = (merged as { commit: string }).commit;
    expect(await tip('main')).toBe(commit);
    expect((await git().raw(['rev-list', '--parents', '-1', commit])).trim().split(' ')).toEqual([
      commit,
      mainBefore,
      dev,
    ]);
    const workspace = workspaces.workspaceDirectory(PROJECT);
    expect(await readFile(join(workspace, 'src/catalogo.ts'), 'utf8')).toBe(
      "export const modulo = 'catalogo';\n",
    );
    expect(await readFile(join(workspace, 'docs/module-map.md'), 'utf8')).toBe('v2\n');
    expect(await workspaces.mergeIntoMain(PROJECT, dev, 'again')).toEqual({
      ok: true,
      commit,
      recovered: true,
    });
    expect(await tip('main')).toBe(commit);

    // A module that wrote a file main changed too (a dev cannot change docs/, ADR 0301): the merge into main
    // conflicts and is aborted.
    const worktree = await workspaces.ensureWorktree(PROJECT, 'pedidos');
    await mkdir(join(worktree.directory, 'src'), { recursive: true });
    await writeFile(join(worktree.directory, 'src/shared.ts'), 'pedidos wrote this\n');
    expect(await workspaces.commitModule(PROJECT, 'pedidos', 'pedidos: shared')).toMatchObject({
      ok: true,
    });
    await workspaces.mergeModule(PROJECT, 'pedidos', async () => ({ passed: true, report: null }));
    await workspaces.commitToMain(
      PROJECT,
      [{ path: 'src/shared.ts', content: 'main wrote this\n' }],
      'main: shared',
    );
    const mainNow = await tip('main');
    expect(
      await workspaces.mergeIntoMain(PROJECT, await workspaces.integrationHead(PROJECT), 'Merge'),
    ).toEqual({ ok: false, reason: 'conflict', conflicts: ['src/shared.ts'] });
    expect(await tip('main')).toBe(mainNow);
    expect((await git().raw(['status', '--porcelain'])).trim()).toBe('');
    expect(await readFile(join(workspace, 'src/shared.ts'), 'utf8')).toBe('main wrote this\n');

    // A change someone left in the workspace that the merge would overwrite: refused with git's reason.
    await writeFile(join(workspace, 'src/shared.ts'), 'edited by hand\n');
    expect(
      await workspaces.mergeIntoMain(PROJECT, await workspaces.integrationHead(PROJECT), 'Merge'),
    ).toMatchObject({
      ok: false,
      reason: 'git_refused',
      message: expect.stringContaining('src/shared.ts'),
    });
    expect(await tip('main')).toBe(mainNow);
    expect(await readFile(join(workspace, 'src/shared.ts'), 'utf8')).toBe('edited by hand\n');

    // A commit this repository does not have (the project's repository lives in another data directory).
    const elsewhere = 'f'.repeat(40);
    expect(await workspaces.mergeIntoMain(PROJECT, elsewhere, 'Merge')).toMatchObject({
      ok: false,
      reason: 'missing_commit',
      message: expect.stringContaining(
        `the commit ${elsewhere} is not in the project's repository`,
      ),
    });
    expect(await tip('main')).toBe(mainNow);
  });
});
