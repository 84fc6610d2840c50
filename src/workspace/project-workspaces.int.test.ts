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

  it('never writes or reads through a link in the repository: the outside file stays as it was', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'forja-outside-'));
    try {
      await writeFile(join(outside, 'secret'), 'host file\n');
      const workspace = await workspaces.ensureWorkspace(PROJECT);
      await mkdir(join(workspace, 'docs'));
      await symlink(join(outside, 'secret'), join(workspace, 'docs', 'project-image.md'));
      await symlink(outside, join(workspace, 'linked'));
      await expect(
        workspaces.commitToMain(PROJECT, [{ path: 'docs/project-image.md', content: 'x' }], 'm'),
      ).rejects.toThrow(/docs\/project-image\.md cannot be written: it is a symbolic link/);
      // Equal content read through the link would be "nothing changed": it is never read.
      await expect(
        workspaces.commitToMain(
          PROJECT,
          [{ path: 'docs/project-image.md', content: 'host file\n' }],
          'm',
        ),
      ).rejects.toThrow(/symbolic link/);
      await expect(
        workspaces.commitToMain(PROJECT, [{ path: 'linked/secret', content: 'x' }], 'm'),
      ).rejects.toThrow(/linked is a symbolic link/);
      expect(await readFile(join(outside, 'secret'), 'utf8')).toBe('host file\n');
      expect((await git().raw(['rev-list', '--count', 'main'])).trim()).toBe('1');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
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

  it('refuses a module commit with a link leading out, an instruction file that is a link, or a change of docs/', async () => {
    const pedidos = await workspaces.ensureWorktree(PROJECT, 'pedidos');
    const tipBefore = (await git().raw(['rev-parse', 'dev-pedidos'])).trim();
    await mkdir(join(pedidos.directory, 'src'));
    await writeFile(join(pedidos.directory, 'src', 'notes.md'), 'notes');
    await symlink('src/notes.md', join(pedidos.directory, 'AGENTS.md'));
    await symlink('../../escape', join(pedidos.directory, 'src', 'up'));
    await symlink('notes.md', join(pedidos.directory, 'src', 'inside'));
    await mkdir(join(pedidos.directory, 'docs'), { recursive: true });
    await writeFile(join(pedidos.directory, 'docs', 'project-image.md'), 'mine');
    const refused = await workspaces.commitModule(PROJECT, 'pedidos', 'AT-1');
    expect(refused).toEqual({
      ok: false,
      reason: expect.stringContaining('Nothing was committed'),
    });
    const reason = (refused as { reason: string }).reason;
    expect(reason).toContain(
      'AGENTS.md is a symbolic link and an instruction file is never a link',
    );
    expect(reason).toContain(
      'src/up is a symbolic link and its target "../../escape" climbs 2 directories',
    );
    expect(reason).toContain('docs/project-image.md is under docs/, which Forja writes');
    expect(reason).not.toContain('src/inside');
    expect((await git().raw(['rev-parse', 'dev-pedidos'])).trim()).toBe(tipBefore);
    for (const path of ['AGENTS.md', 'src/up', 'docs'])
      await rm(join(pedidos.directory, path), { recursive: true });
    expect(await workspaces.commitModule(PROJECT, 'pedidos', 'AT-1')).toMatchObject({
      ok: true,
      files: ['src/inside', 'src/notes.md'],
    });
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
