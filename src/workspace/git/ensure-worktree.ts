import { lstat, mkdir, readdir, rmdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { INTEGRATION_BRANCH } from '../workspace-layout.ts';
import { gitAt } from './git-at.ts';
import { hasBranch } from './ensure-repository.ts';

/**
 * Gives a module its worktree at `worktree` on `branch`, created from the integration branch the first
 * time; later calls find it and do nothing (whether its `.git` is still the one git wrote is checked before
 * each commit, `checkWorktreeLink`). A worktree directory removed by hand is pruned and made again on the
 * same branch, so the module's committed work is never lost; a worktree left with files but no `.git` is
 * refused — Forja does not guess which repository it belonged to.
 */
export async function ensureWorktree(
  repository: string,
  worktree: string,
  branch: string,
  /** Whether `branch` exists, when the caller just asked git (one git less); asked here otherwise. */
  branchExists?: boolean,
): Promise<void> {
  if ((await lstat(join(worktree, '.git')).catch(() => null)) !== null) return;
  const left = await readdir(worktree).catch(() => null);
  if (left !== null && left.length > 0) {
    throw new Error(
      `refused by the rule "host git never trusts the worktree": ${join(worktree, '.git')} is missing from a worktree that still has files; git was not run`,
    );
  }
  await mkdir(dirname(worktree), { recursive: true });
  const git = gitAt(repository);
  // git still lists a worktree of this name only when its directory was removed by hand: then it is pruned.
  const name = basename(worktree);
  const registered = (await readdir(join(repository, '.git', 'worktrees')).catch(() => [])).some(
    (entry) => entry.startsWith(name),
  );
  if (registered) await git.raw(['worktree', 'prune']);
  if (left !== null) await rmdir(worktree);
  if (branchExists ?? (await hasBranch(repository, branch)))
    await git.raw(['worktree', 'add', '--quiet', worktree, branch]);
  else await git.raw(['worktree', 'add', '--quiet', '-b', branch, worktree, INTEGRATION_BRANCH]);
}
