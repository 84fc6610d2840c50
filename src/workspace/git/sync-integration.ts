import { INTEGRATION_BRANCH, MAIN_BRANCH } from '../workspace-layout.ts';
import { gitAt } from './git-at.ts';
import { HostGitError, runHostGit } from './host-git.ts';
import { mergeInScratch, removeScratch } from './merge-into-integration.ts';
import { checkWorktreeLink } from './worktree-link.ts';

/** Whether `dev` now holds everything `main` has (its docs/), and how it got there. */
export type IntegrationSync =
  | { ok: true; moved: 'no' | 'fast-forward' | 'merge'; dev: string }
  | { ok: false; conflicts: string[] };

/**
 * Brings `main` (where Forja writes docs/) into `dev`, so a module worktree made from `dev` sees the docs the
 * Arquiteto wrote. Nothing to do when `dev` already contains `main`; when `dev` has no commit of its own it
 * moves to `main` (`update-ref` from the value read: never a force); otherwise `main` is merged into `dev`
 * with a real merge commit in the scratch worktree detached at `dev`. A conflict (a module wrote the same
 * docs/ path) leaves `dev` as it was and returns the paths. The caller holds the project's git lock.
 */
export async function syncIntegrationWithMain(
  repository: string,
  scratch: string,
): Promise<IntegrationSync> {
  const git = gitAt(repository);
  // Both tips in one git, and how they relate in one more: the best common ancestor of main and dev is main
  // exactly when dev already holds main, and dev exactly when dev can move to main.
  const tips = (
    await git.raw([
      'rev-parse',
      `refs/heads/${MAIN_BRANCH}^{commit}`,
      `refs/heads/${INTEGRATION_BRANCH}^{commit}`,
    ])
  )
    .trim()
    .split('\n');
  const [main, dev] = [tips[0] ?? '', tips[1] ?? ''];
  const base = await git.raw(['merge-base', main, dev]).then(
    (output) => output.trim(),
    (error: unknown) => {
      // No common ancestor at all: neither holds the other.
      if (error instanceof HostGitError && error.exitCode === 1) return null;
      throw error;
    },
  );
  if (base === main) return { ok: true, moved: 'no', dev };
  const advance = (commit: string, reason: string) =>
    git.raw(['update-ref', '-m', reason, `refs/heads/${INTEGRATION_BRANCH}`, commit, dev]);
  if (base === dev) {
    await advance(main, 'forja: dev takes main (docs)');
    return { ok: true, moved: 'fast-forward', dev: main };
  }
  await removeScratch(repository, scratch);
  await git.raw(['worktree', 'add', '--quiet', '--detach', scratch, dev]);
  try {
    const link = await checkWorktreeLink(repository, scratch);
    if (!link.ok) throw new Error(link.reason);
    const inScratch = (args: readonly string[]) =>
      runHostGit({ gitDir: link.gitDir, workTree: scratch }, args, { cwd: scratch });
    const merged = await mergeInScratch(inScratch, 'Merge main (docs) into dev', main);
    if (!merged.ok) return merged;
    const merge = (await inScratch(['rev-parse', 'HEAD'])).trim();
    await advance(merge, 'forja: main (docs) merged into dev');
    return { ok: true, moved: 'merge', dev: merge };
  } finally {
    await removeScratch(repository, scratch);
  }
}
