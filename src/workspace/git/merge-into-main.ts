import { MAIN_BRANCH } from '../workspace-layout.ts';
import { gitAt } from './git-at.ts';
import { HostGitError } from './host-git.ts';

export type MainMerge =
  | { ok: true; commit: string; recovered: boolean }
  | { ok: false; reason: 'conflict'; conflicts: string[] }
  | {
      ok: false;
      reason: 'not_on_main' | 'already_in_main' | 'git_refused' | 'missing_commit';
      message: string;
    };

/**
 * Merges `commit` (the `dev` the line completed on) into `main` in the project's workspace, where `main` is
 * checked out: always a real merge commit (`--no-ff`), never a force or a reset. A conflict is aborted (main
 * stays as it was) and its paths returned. When `commit` is already in `main` through a merge commit whose
 * second parent it is (the merge was made but not recorded), that merge is returned with `recovered`; already
 * in `main` any other way, or a merge git refuses to start (changes in the workspace it would overwrite), a
 * refusal with the reason. The caller holds the project's git lock.
 */
export async function mergeIntoMain(
  repository: string,
  commit: string,
  message: string,
): Promise<MainMerge> {
  const git = gitAt(repository);
  const head = (await git.raw(['symbolic-ref', '--quiet', 'HEAD']).catch(() => '')).trim();
  if (head !== `refs/heads/${MAIN_BRANCH}`)
    return {
      ok: false,
      reason: 'not_on_main',
      message: `the workspace has ${head || 'a detached HEAD'} checked out, not refs/heads/${MAIN_BRANCH}; nothing was merged`,
    };
  // A commit this repository lacks (its project's repository is in another data directory, ADR 0316, or was
  // replaced): a refusal naming it, not git's error.
  const present = await git.raw(['cat-file', '-e', `${commit}^{commit}`]).then(
    () => true,
    () => false,
  );
  if (!present)
    return {
      ok: false,
      reason: 'missing_commit',
      message: `the commit ${commit} is not in the project's repository at ${repository}; nothing was merged (is FORJA_DATA_DIR the data directory the project was created in?)`,
    };
  const inMain = await git.raw(['merge-base', '--is-ancestor', commit, 'HEAD']).then(
    () => true,
    (error: unknown) => {
      if (error instanceof HostGitError && error.exitCode === 1) return false;
      throw error;
    },
  );
  if (inMain) {
    const merges = (await git.raw(['rev-list', '--merges', '--parents', 'HEAD']))
      .split('\n')
      .map((line) => line.trim().split(' '))
      .filter((fields) => fields.length >= 3 && fields[2] === commit);
    if (merges.length > 0) return { ok: true, commit: merges[0]![0]!, recovered: true };
    return {
      ok: false,
      reason: 'already_in_main',
      message: `${commit} is already in ${MAIN_BRANCH} without a merge commit; nothing was merged`,
    };
  }
  try {
    await git.raw(['merge', '--no-ff', '--no-edit', '-m', message, commit]);
  } catch (error) {
    if (!(error instanceof HostGitError)) throw error;
    const conflicts = (await git.raw(['diff', '--name-only', '--diff-filter=U']))
      .split('\n')
      .filter((path) => path !== '');
    await git.raw(['merge', '--abort']).catch(() => undefined);
    // No conflict: git refused to start (local changes in the workspace it would overwrite, say).
    if (conflicts.length === 0)
      return {
        ok: false,
        reason: 'git_refused',
        message: `git refused to merge into ${MAIN_BRANCH}: ${error.stderr.trim().slice(0, 500)}; nothing was merged`,
      };
    return { ok: false, reason: 'conflict', conflicts };
  }
  const merged = (await git.raw(['rev-list', '--parents', '-1', 'HEAD'])).trim().split(' ');
  if (merged.length !== 3 || merged[2] !== commit)
    throw new Error(`the merge into ${MAIN_BRANCH} did not make a merge commit of ${commit}`);
  return { ok: true, commit: merged[0]!, recovered: false };
}
