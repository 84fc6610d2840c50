import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { INTEGRATION_BRANCH } from '../workspace-layout.ts';
import { gitAt } from './git-at.ts';
import { hasBranch } from './ensure-repository.ts';

/**
 * Gives a module its worktree at `worktree` on `branch`, created from the integration branch the first
 * time; later calls find it and do nothing. A worktree directory removed by hand is pruned and made again
 * on the same branch, so the module's committed work is never lost.
 */
export async function ensureWorktree(repository: string, worktree: string, branch: string): Promise<void> {
  if (existsSync(join(worktree, '.git'))) return;
  await mkdir(dirname(worktree), { recursive: true });
  const git = gitAt(repository);
  await git.raw(['worktree', 'prune']);
  if (await hasBranch(repository, branch)) await git.raw(['worktree', 'add', '--quiet', worktree, branch]);
  else await git.raw(['worktree', 'add', '--quiet', '-b', branch, worktree, INTEGRATION_BRANCH]);
}
