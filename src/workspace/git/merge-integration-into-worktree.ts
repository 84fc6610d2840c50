import { configPrograms } from './commit-worktree.ts';
import { HostGitError, runHostGit } from './host-git.ts';
import { checkWorktreeLink } from './worktree-link.ts';

/** `dev` merged into a module's branch in its worktree, or why not (the worktree is left as it was). */
export type WorktreeUpdate =
  | { ok: true; commit: string; merged: boolean }
  | { ok: false; reason: string; conflicts: string[] };

/**
 * Merges `from` (the integration branch) into the module's branch in its own worktree, so the code of the
 * modules merged there is in the dev's worktree (ADR 0343): a real merge commit (`--no-ff`, never a force),
 * `merged: false` when the branch already had it. Host git only as `commitWorktree` runs it: the worktree's
 * `.git` checked before each command, its configuration refused when it would run a program, the branch
 * checked out verified. A conflict, or the dev's uncommitted changes in the way, aborts the merge and says why.
 */
export async function mergeIntegrationIntoWorktree(
  repository: string,
  worktree: string,
  branch: string,
  from: string,
  message: string,
): Promise<WorktreeUpdate> {
  const refused = (reason: string): WorktreeUpdate => ({ ok: false, reason, conflicts: [] });
  const link = await checkWorktreeLink(repository, worktree);
  if (!link.ok) return refused(link.reason);
  const git = (args: readonly string[]) =>
    runHostGit({ gitDir: link.gitDir, workTree: worktree }, args, { cwd: worktree });
  const running = await configPrograms(repository, worktree, git);
  if (!Array.isArray(running)) return refused(running.refused);
  if (running.length > 0)
    return refused(
      `refused by the rule "host git never trusts the worktree": the repository's configuration sets ${running.join(', ')}; nothing was merged`,
    );
  const head = (await git(['symbolic-ref', '--quiet', 'HEAD']).catch(() => '')).trim();
  if (head !== `refs/heads/${branch}`)
    return refused(
      `the worktree is on ${head || 'a detached HEAD'}, not on ${branch}; nothing was merged`,
    );
  const before = (await git(['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
  try {
    await git([
      'merge',
      '--no-ff',
      '--no-edit',
      '--no-verify',
      '-m',
      message,
      `refs/heads/${from}`,
    ]);
  } catch (error) {
    if (!(error instanceof HostGitError)) throw error;
    const conflicts = (await git(['diff', '--name-only', '--diff-filter=U']).catch(() => ''))
      .split('\n')
      .filter((path) => path !== '');
    await git(['merge', '--abort']).catch(() => undefined);
    return {
      ok: false,
      conflicts,
      reason:
        conflicts.length > 0
          ? `merging ${from} into ${branch} conflicts in ${conflicts.join(', ')}; the merge was aborted`
          : `git could not merge ${from} into ${branch}: ${error.stderr.trim().slice(0, 500)}`,
    };
  }
  // The merge and the branch's tip in one git: the checked worktree's git directory is the repository's own.
  const [commit = '', tip = ''] = (
    await git(['rev-parse', 'HEAD^{commit}', `refs/heads/${branch}^{commit}`]).catch(() => '')
  )
    .trim()
    .split('\n');
  if (commit === '' || tip !== commit)
    return refused(`the merge ${commit} is not the tip of ${branch} (${tip || 'no such branch'})`);
  return { ok: true, commit, merged: commit !== before };
}
