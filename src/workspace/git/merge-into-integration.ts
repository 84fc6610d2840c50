import { rm } from 'node:fs/promises';
import { INTEGRATION_BRANCH } from '../workspace-layout.ts';
import { gitAt } from './git-at.ts';
import { HostGitError, runHostGit } from './host-git.ts';
import { checkWorktreeLink } from './worktree-link.ts';

export type IntegrationMerge =
  | { ok: true; commit: string; onto: string }
  | { ok: false; conflicts: string[] };

/**
 * Merges `branch` into the integration branch (`dev`) in a fresh worktree at `scratch`, detached at `dev`: a
 * real merge commit (`--no-ff`, never a fast-forward or a force). `dev` itself does not move: the caller runs
 * the integration check in `scratch`, then `advanceIntegration` (only from the `dev` it merged onto). A
 * conflict aborts the merge and returns the conflicting paths. `removeScratch` removes the worktree. Host git
 * only through the pinned wrapper (decision 0040).
 */
export async function mergeIntoIntegration(
  repository: string,
  scratch: string,
  branch: string,
  message: string,
): Promise<IntegrationMerge> {
  const git = gitAt(repository);
  await removeScratch(repository, scratch);
  const onto = (await git.raw(['rev-parse', `refs/heads/${INTEGRATION_BRANCH}`])).trim();
  await git.raw(['worktree', 'add', '--quiet', '--detach', scratch, onto]);
  const link = await checkWorktreeLink(repository, scratch);
  if (!link.ok) throw new Error(link.reason);
  const inScratch = (args: readonly string[]) =>
    runHostGit({ gitDir: link.gitDir, workTree: scratch }, args, { cwd: scratch });
  try {
    await inScratch(['merge', '--no-ff', '--no-edit', '-m', message, branch]);
  } catch (error) {
    if (!(error instanceof HostGitError)) throw error;
    const conflicts = (await inScratch(['diff', '--name-only', '--diff-filter=U']))
      .split('\n')
      .filter((path) => path !== '');
    await inScratch(['merge', '--abort']).catch(() => undefined);
    if (conflicts.length === 0) throw error;
    return { ok: false, conflicts };
  }
  return { ok: true, commit: (await inScratch(['rev-parse', 'HEAD'])).trim(), onto };
}

/** Moves `dev` to the checked merge, only if it is still where the merge started (never a force). */
export async function advanceIntegration(
  repository: string,
  commit: string,
  onto: string,
): Promise<void> {
  await gitAt(repository).raw([
    'update-ref',
    '-m',
    'forja: merge checked',
    `refs/heads/${INTEGRATION_BRANCH}`,
    commit,
    onto,
  ]);
}

/** Removes the scratch worktree of `dev`, if any, and forgets it. */
export async function removeScratch(repository: string, scratch: string): Promise<void> {
  await rm(scratch, { recursive: true, force: true });
  await gitAt(repository).raw(['worktree', 'prune']);
}
