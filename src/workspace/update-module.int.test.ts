import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitAt } from './git/git-at.ts';
import { createProjectWorkspaces, type ProjectWorkspaces } from './project-workspaces.ts';

const PROJECT = '0193b7a4-8a5e-7cc1-9d8a-2b1f3c4d5e71';

describe('dev merged into a module worktree once a dependency merged', () => {
  let dataDirectory: string;
  let workspaces: ProjectWorkspaces;
  beforeEach(async () => {
    dataDirectory = await mkdtemp(join(tmpdir(), 'forja-update-module-'));
    workspaces = createProjectWorkspaces({ dataDirectory });
  });
  afterEach(() => rm(dataDirectory, { recursive: true, force: true }));
  const git = () => gitAt(workspaces.workspaceDirectory(PROJECT));
  const tip = async (ref: string) => (await git().raw(['rev-parse', ref])).trim();
  const write = async (module: string, path: string, content: string) => {
    const worktree = await workspaces.ensureWorktree(PROJECT, module);
    await mkdir(join(worktree.directory, 'src'), { recursive: true });
    await writeFile(join(worktree.directory, path), content);
    return worktree.directory;
  };
  const merged = async (module: string, path: string, content: string) => {
    await write(module, path, content);
    const committed = await workspaces.commitModule(PROJECT, module, `${module}: feito`);
    if (!committed.ok) throw new Error(committed.reason);
    const outcome = await workspaces.mergeModule(PROJECT, module, async () => ({
      passed: true,
      report: null,
    }));
    if (outcome.outcome !== 'merged') throw new Error(outcome.outcome);
  };

  it("brings the dependency's code with a merge commit, keeping the dev's uncommitted work elsewhere; a second time merges nothing", async () => {
    const pedidos = await write('pedidos', 'src/rascunho.ts', 'em andamento\n');
    const before = await tip('dev-pedidos');
    await merged('catalogo', 'src/catalogo.ts', 'export const paes = [];\n');
    const update = await workspaces.updateModuleFromIntegration(PROJECT, 'pedidos', 'Merge dev');
    expect(update).toMatchObject({ ok: true, merged: true });
    expect(await readFile(join(pedidos, 'src/catalogo.ts'), 'utf8')).toBe(
      'export const paes = [];\n',
    );
    expect(await readFile(join(pedidos, 'src/rascunho.ts'), 'utf8')).toBe('em andamento\n');
    expect((await git().raw(['log', '-1', '--format=%P', 'dev-pedidos'])).trim()).toBe(
      `${before} ${await tip('dev')}`,
    );
    expect(
      await workspaces.updateModuleFromIntegration(PROJECT, 'pedidos', 'Merge dev'),
    ).toMatchObject({ ok: true, merged: false });
  });

  it("refuses, leaving the worktree and the branch as they were, when the dev's changes are in the way or conflict; null without a worktree", async () => {
    expect(
      await workspaces.updateModuleFromIntegration(PROJECT, 'estoque', 'Merge dev'),
    ).toBeNull();
    const pedidos = await write('pedidos', 'src/catalogo.ts', 'minha versão\n');
    const before = await tip('dev-pedidos');
    await merged('catalogo', 'src/catalogo.ts', 'export const paes = [];\n');
    const inTheWay = await workspaces.updateModuleFromIntegration(PROJECT, 'pedidos', 'Merge dev');
    expect(inTheWay).toMatchObject({
      ok: false,
      reason: expect.stringContaining('src/catalogo.ts'),
    });
    expect(await readFile(join(pedidos, 'src/catalogo.ts'), 'utf8')).toBe('minha versão\n');
    expect(await tip('dev-pedidos')).toBe(before);
    // Committed, the same path conflicts: the merge is aborted.
    const committed = await workspaces.commitModule(PROJECT, 'pedidos', 'pedidos: minha versão');
    if (!committed.ok) throw new Error(committed.reason);
    const conflict = await workspaces.updateModuleFromIntegration(PROJECT, 'pedidos', 'Merge dev');
    expect(conflict).toMatchObject({ ok: false, conflicts: ['src/catalogo.ts'] });
    expect(await readFile(join(pedidos, 'src/catalogo.ts'), 'utf8')).toBe('minha versão\n');
    expect(await tip('dev-pedidos')).toBe(committed.commit);
    expect((await git().raw(['status', '--porcelain'])).trim()).toBe('');
  });

  it('with takeMain, dev first takes what main got since, so the worktree holds it too', async () => {
    const catalogo = await write('catalogo', 'src/catalogo.ts', 'export const paes = [];\n');
    const committed = await workspaces.commitModule(PROJECT, 'catalogo', 'catalogo: feito');
    if (!committed.ok) throw new Error(committed.reason);
    await workspaces.commitToMain(
      PROJECT,
      [{ path: 'docs/architecture/module-map.md', content: '# Mapa v2\n' }],
      'docs: mapa v2',
    );
    expect(
      await workspaces.updateModuleFromIntegration(PROJECT, 'catalogo', 'Merge dev', {
        takeMain: true,
      }),
    ).toMatchObject({ ok: true, merged: true });
    expect(await readFile(join(catalogo, 'docs/architecture/module-map.md'), 'utf8')).toBe(
      '# Mapa v2\n',
    );
    expect(await readFile(join(catalogo, 'src/catalogo.ts'), 'utf8')).toBe(
      'export const paes = [];\n',
    );
  });
});
