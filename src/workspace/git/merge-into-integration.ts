import { lstat, readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
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
  /** The commit `dev` is at, when the caller (holding the lock) just read it; read here otherwise. */
  dev?: string,
): Promise<IntegrationMerge> {
  const merged = await mergeAllIntoIntegration(repository, scratch, [{ branch, message }], dev);
  return merged.ok
    ? { ok: true, commit: merged.commits[0]!, onto: merged.onto }
    : { ok: false, conflicts: merged.conflicts };
}

/**
 * A real merge commit (`--no-ff`) of `branch` in the scratch worktree `inScratch` runs git in; on a conflict the
 * merge is aborted and the conflicting paths returned (a failure with none is thrown).
 */
export async function mergeInScratch(
  inScratch: (args: readonly string[]) => Promise<string>,
  message: string,
  branch: string,
): Promise<{ ok: true } | { ok: false; conflicts: string[] }> {
  try {
    await inScratch(['merge', '--no-ff', '--no-edit', '-m', message, branch]);
    return { ok: true };
  } catch (error) {
    if (!(error instanceof HostGitError)) throw error;
    const conflicts = (await inScratch(['diff', '--name-only', '--diff-filter=U']))
      .split('\n')
      .filter((path) => path !== '');
    await inScratch(['merge', '--abort']).catch(() => undefined);
    if (conflicts.length === 0) throw error;
    return { ok: false, conflicts };
  }
}

/**
 * `mergeIntoIntegration` of several branches, one after another in the same scratch worktree: one real merge
 * commit each, in the order given, each onto the one before (ADR 0428). The first conflict aborts that merge
 * and returns its branch and paths; the scratch then holds the merges before it.
 */
export async function mergeAllIntoIntegration(
  repository: string,
  scratch: string,
  merges: ReadonlyArray<{ branch: string; message: string }>,
  dev?: string,
): Promise<
  { ok: true; commits: string[]; onto: string } | { ok: false; conflicts: string[]; branch: string }
> {
  const git = gitAt(repository);
  await removeScratch(repository, scratch);
  const onto = dev ?? (await git.raw(['rev-parse', `refs/heads/${INTEGRATION_BRANCH}`])).trim();
  await git.raw(['worktree', 'add', '--quiet', '--detach', scratch, onto]);
  const link = await checkWorktreeLink(repository, scratch);
  if (!link.ok) throw new Error(link.reason);
  const inScratch = (args: readonly string[]) =>
    runHostGit({ gitDir: link.gitDir, workTree: scratch }, args, { cwd: scratch });
  const commits: string[] = [];
  for (const { branch, message } of merges) {
    const merged = await mergeInScratch(inScratch, message, branch);
    if (!merged.ok) return { ...merged, branch };
    commits.push((await inScratch(['rev-parse', 'HEAD'])).trim());
  }
  return { ok: true, commits, onto };
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

/**
 * Removes the scratch worktree of `dev`, if any, and forgets it: `git worktree prune` runs when there was a
 * scratch directory or git still lists a worktree of its name (one removed without a prune), not otherwise.
 */
export async function removeScratch(repository: string, scratch: string): Promise<void> {
  const existed = (await lstat(scratch).catch(() => null)) !== null;
  await rm(scratch, { recursive: true, force: true });
  const name = basename(scratch);
  const registered = (await readdir(join(repository, '.git', 'worktrees')).catch(() => [])).some(
    (entry) => entry.startsWith(name),
  );
  if (existed || registered) await gitAt(repository).raw(['worktree', 'prune']);
}
