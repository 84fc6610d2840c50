import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createProjectWorkspaces } from '../project-workspaces.ts';
import { INTEGRATION_BRANCH } from '../workspace-layout.ts';
import { gitAt } from './git-at.ts';
import {
  advanceIntegration,
  mergeIntoIntegration,
  removeScratch,
} from './merge-into-integration.ts';

const PROJECT = '00000000-0000-4000-8000-000000000001';
let dataDirectory: string | undefined;
afterEach(async () => {
  if (dataDirectory !== undefined) await rm(dataDirectory, { recursive: true, force: true });
  dataDirectory = undefined;
});

async function twoModules(pedidosPath: string) {
  dataDirectory = await mkdtemp(join(tmpdir(), 'forja-merge-'));
  const workspaces = createProjectWorkspaces({ dataDirectory });
  const repository = await workspaces.ensureWorkspace(PROJECT);
  for (const [module, path] of [
    ['catalogo', 'src/catalogo.ts'],
    ['pedidos', pedidosPath],
  ] as const) {
    const worktree = await workspaces.ensureWorktree(PROJECT, module);
    await mkdir(join(worktree.directory, 'src'), { recursive: true });
    await writeFile(join(worktree.directory, path), `export const modulo = '${module}';\n`);
    await workspaces.commitModule(
      PROJECT,
      module,
      `AT-00${module === 'catalogo' ? 1 : 2}: ${module}`,
    );
  }
  return { repository, scratch: join(dataDirectory, 'scratch-dev') };
}

describe('mergeIntoIntegration', () => {
  it('merges each module branch into dev with a real merge commit, in the order asked', async () => {
    const { repository, scratch } = await twoModules('src/pedidos.ts');
    const git = gitAt(repository);
    const base = (await git.raw(['rev-parse', INTEGRATION_BRANCH])).trim();
    const catalogo = await mergeIntoIntegration(
      repository,
      scratch,
      'dev-catalogo',
      'Merge dev-catalogo into dev',
    );
    expect(catalogo).toMatchObject({ ok: true, onto: base });
    // dev moves only when the caller advances it, from where the merge started.
    expect((await git.raw(['rev-parse', INTEGRATION_BRANCH])).trim()).toBe(base);
    await advanceIntegration(repository, (catalogo as { commit: string }).commit, base);
    const pedidos = await mergeIntoIntegration(
      repository,
      scratch,
      'dev-pedidos',
      'Merge dev-pedidos into dev',
    );
    expect(pedidos).toMatchObject({ ok: true });
    await expect(
      advanceIntegration(repository, (pedidos as { commit: string }).commit, base),
    ).rejects.toThrow();
    await advanceIntegration(
      repository,
      (pedidos as { commit: string }).commit,
      (catalogo as { commit: string }).commit,
    );
    expect((await git.raw(['rev-parse', INTEGRATION_BRANCH])).trim()).toBe(
      (pedidos as { commit: string }).commit,
    );
    expect(
      (await git.raw(['log', '--merges', '--format=%s', INTEGRATION_BRANCH])).trim().split('\n'),
    ).toEqual(['Merge dev-pedidos into dev', 'Merge dev-catalogo into dev']);
    expect(
      (await git.raw(['rev-list', '--parents', '-1', INTEGRATION_BRANCH])).trim().split(' '),
    ).toHaveLength(3);
    expect(await git.raw(['show', `${INTEGRATION_BRANCH}:src/catalogo.ts`])).toBe(
      "export const modulo = 'catalogo';\n",
    );
    expect(await git.raw(['show', `${INTEGRATION_BRANCH}:src/pedidos.ts`])).toBe(
      "export const modulo = 'pedidos';\n",
    );
    await removeScratch(repository, scratch);
  });

  it('returns the conflicting path when two modules wrote the same file, leaving dev as it was', async () => {
    const { repository, scratch } = await twoModules('src/catalogo.ts');
    const catalogo = await mergeIntoIntegration(
      repository,
      scratch,
      'dev-catalogo',
      'Merge dev-catalogo into dev',
    );
    if (!catalogo.ok) throw new Error('the first merge conflicted');
    await advanceIntegration(repository, catalogo.commit, catalogo.onto);
    const before = (await gitAt(repository).raw(['rev-parse', INTEGRATION_BRANCH])).trim();
    expect(
      await mergeIntoIntegration(repository, scratch, 'dev-pedidos', 'Merge dev-pedidos into dev'),
    ).toEqual({ ok: false, conflicts: ['src/catalogo.ts'] });
    expect((await gitAt(repository).raw(['rev-parse', INTEGRATION_BRANCH])).trim()).toBe(before);
    await removeScratch(repository, scratch);
  });
});
