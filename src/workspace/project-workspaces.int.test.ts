import { mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitAt } from './git/git-at.ts';
import { createProjectWorkspaces, type ProjectWorkspaces } from './project-workspaces.ts';

const PROJECT = '0193b7a4-8a5e-7cc1-9d8a-2b1f3c4d5e6f';

describe('project workspaces', () => {
  let dataDirectory: string;
  let workspaces: ProjectWorkspaces;
  beforeEach(async () => {
    dataDirectory = await mkdtemp(join(tmpdir(), 'forja-workspaces-'));
    workspaces = createProjectWorkspaces({ dataDirectory });
  });
  afterEach(() => rm(dataDirectory, { recursive: true, force: true }));
  const git = () => gitAt(workspaces.workspaceDirectory(PROJECT));

  it('creates the repository on first use with main checked out and the integration branch dev', async () => {
    const directory = await workspaces.ensureWorkspace(PROJECT);
    expect(directory).toBe(join(dataDirectory, 'projects', PROJECT, 'workspace'));
    expect((await git().raw(['branch', '--format=%(refname:short)'])).trim().split('\n')).toEqual([
      'dev',
      'main',
    ]);
    expect((await git().raw(['symbolic-ref', '--short', 'HEAD'])).trim()).toBe('main');
    expect(await workspaces.ensureWorkspace(PROJECT)).toBe(directory);
  });

  it('refuses a commit whose changed files pass the limit before git reads them, a sparse file by its size', async () => {
    const limited = createProjectWorkspaces({ dataDirectory, commitMaxBytes: 1024 * 1024 });
    const worktree = await limited.ensureWorktree(PROJECT, 'pedidos');
    await mkdir(join(worktree.directory, 'data'));
    await writeFile(join(worktree.directory, 'data', 'a.txt'), 'small\n');
    expect(await limited.commitModule(PROJECT, 'pedidos', 'AT-1: small')).toMatchObject({
      ok: true,
    });
    // data/ becomes a link to a directory outside with a big a.txt: git sees data/a.txt deleted, and the
    // size check never follows the link to it.
    const outside = join(dataDirectory, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'a.txt'), Buffer.alloc(2 * 1024 * 1024));
    await rm(join(worktree.directory, 'data'), { recursive: true });
    await symlink(outside, join(worktree.directory, 'data'));
    expect(await limited.commitModule(PROJECT, 'pedidos', 'AT-1: link')).toMatchObject({
      ok: true,
    });
    const sparse = join(worktree.directory, 'sparse.bin');
    await writeFile(sparse, '');
    await truncate(sparse, 8 * 1024 * 1024 * 1024);
    expect(await limited.commitModule(PROJECT, 'pedidos', 'AT-2: sparse')).toEqual({
      ok: false,
      reason:
        'the changed files hold 8192.0 MiB, more than the 1.0 MiB one commit may add (FORJA_COMMIT_MAX_MB); the largest is sparse.bin (8192.0 MiB). Remove or shrink them; nothing was committed',
    });
    expect((await git().raw(['log', '--format=%s', 'dev-pedidos'])).trim().split('\n')[0]).toBe(
      'AT-1: link',
    );
  });

  it('overwrites the same file on main and commits only when it changed', async () => {
    const first = await workspaces.commitToMain(
      PROJECT,
      [{ path: 'docs/module-map.md', content: 'v1' }],
      'docs: v1',
    );
    expect(first).toMatch(/^[0-9a-f]{40}$/);
    expect(
      await workspaces.commitToMain(
        PROJECT,
        [{ path: 'docs/module-map.md', content: 'v1' }],
        'docs: v1 again',
      ),
    ).toBeNull();
    await workspaces.commitToMain(
      PROJECT,
      [{ path: 'docs/module-map.md', content: 'v2' }],
      'docs: v2',
    );
    expect(await git().raw(['show', 'main:docs/module-map.md'])).toBe('v2');
    expect((await git().raw(['log', '--format=%s', 'main'])).trim().split('\n')).toEqual([
      'docs: v2',
      'docs: v1',
      'Forja: the project workspace',
    ]);
    expect((await git().raw(['rev-list', '--count', 'dev'])).trim()).toBe('1');
  });

  it('gives each module its own worktree on dev-<module>, made from dev, and commits there only', async () => {
    const pedidos = await workspaces.ensureWorktree(PROJECT, 'pedidos');
    const catalogo = await workspaces.ensureWorktree(PROJECT, 'catalogo');
    expect(pedidos).toEqual({
      directory: join(dataDirectory, 'projects', PROJECT, 'worktrees', 'pedidos'),
      branch: 'dev-pedidos',
    });
    expect(catalogo.directory).not.toBe(pedidos.directory);
    expect(await workspaces.commitModule(PROJECT, 'pedidos', 'AT-1: nada')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('nothing to commit on dev-pedidos'),
    });
    await writeFile(join(pedidos.directory, 'pedido.ts'), 'export {};\n');
    expect(await workspaces.commitModule(PROJECT, 'pedidos', 'AT-1: pedido')).toMatchObject({
      ok: true,
      branch: 'dev-pedidos',
      files: ['pedido.ts'],
    });
    expect((await git().raw(['rev-list', '--count', 'dev..dev-pedidos'])).trim()).toBe('1');
    expect((await git().raw(['rev-list', '--count', 'dev..dev-catalogo'])).trim()).toBe('0');
  });

  it('recreates a worktree removed by hand on the same branch, keeping its commits', async () => {
    const pedidos = await workspaces.ensureWorktree(PROJECT, 'pedidos');
    await writeFile(join(pedidos.directory, 'pedido.ts'), 'export {};\n');
    await workspaces.commitModule(PROJECT, 'pedidos', 'AT-1: pedido');
    await rm(pedidos.directory, { recursive: true, force: true });
    await workspaces.ensureWorktree(PROJECT, 'pedidos');
    expect((await git().raw(['log', '-1', '--format=%s', 'dev-pedidos'])).trim()).toBe(
      'AT-1: pedido',
    );
    expect(await readFile(join(pedidos.directory, 'pedido.ts'), 'utf8')).toBe('export {};\n');
  });
});
