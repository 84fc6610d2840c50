import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHostGit } from './host-git.ts';
import { checkWorktreeLink } from './worktree-link.ts';

/** A commit of a module's work, or why there is none. */
export type WorktreeCommit =
  | { ok: true; commit: string; branch: string; files: string[] }
  | { ok: false; reason: string };

/**
 * Commits everything changed in a module's worktree (new, modified and deleted files) on its branch, with
 * git pinned to the worktree's git directory inside the main repository — the worktree's `.git` is checked
 * before every command and never followed. Nothing to commit, a changed `.git`, a nested repository and a
 * branch that does not end at the new commit are refusals with the reason; the commit returned is verified
 * to be the tip of `branch` in the repository.
 */
export async function commitWorktree(repository: string, worktree: string, branch: string, message: string): Promise<WorktreeCommit> {
  const git = async (args: readonly string[]): Promise<string | { refused: string }> => {
    const link = await checkWorktreeLink(repository, worktree);
    if (!link.ok) return { refused: link.reason };
    return runHostGit({ gitDir: link.gitDir, workTree: worktree }, args);
  };
  const head = await git(['symbolic-ref', '--quiet', 'HEAD']);
  if (typeof head !== 'string') return { ok: false, reason: head.refused };
  if (head.trim() !== `refs/heads/${branch}`) return { ok: false, reason: `the worktree is on ${head.trim() || 'a detached HEAD'}, not on refs/heads/${branch}; nothing was committed` };
  const added = await git(['add', '--all']);
  if (typeof added !== 'string') return { ok: false, reason: added.refused };
  const index = await git(['ls-files', '--stage', '-z']);
  if (typeof index !== 'string') return { ok: false, reason: index.refused };
  const nested = index.split('\0').filter((entry) => entry.startsWith('160000 ')).map((entry) => entry.split('\t')[1]);
  if (nested.length > 0) {
    await git(['reset', '--quiet']);
    return { ok: false, reason: `${nested.join(', ')} ${nested.length === 1 ? 'is a nested git repository' : 'are nested git repositories'}: Forja commits files only; remove the inner .git and finish again. Nothing was committed` };
  }
  const diff = await git(['diff', '--cached', '--name-only', '-z']);
  if (typeof diff !== 'string') return { ok: false, reason: diff.refused };
  const staged = diff.split('\0').filter((path) => path !== '').sort();
  if (staged.length === 0) {
    return { ok: false, reason: `nothing to commit on ${branch}: the worktree has no change since the last commit; write the files of the task first` };
  }
  // The message comes from the model: read from a file, it can never be taken for a git option.
  const scratch = await mkdtemp(join(tmpdir(), 'forja-commit-'));
  try {
    await writeFile(join(scratch, 'message'), message, 'utf8');
    const committed = await git(['commit', '--quiet', '--no-verify', '--file', join(scratch, 'message')]);
    if (typeof committed !== 'string') return { ok: false, reason: committed.refused };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const current = await git(['rev-parse', '--verify', 'HEAD^{commit}']);
  if (typeof current !== 'string') return { ok: false, reason: current.refused };
  const commit = current.trim();
  const tip = (await runHostGit({ gitDir: join(repository, '.git'), workTree: null }, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]).catch(() => '')).trim();
  if (tip !== commit) return { ok: false, reason: `the commit ${commit} is not the tip of ${branch} in the project's repository (${tip || 'no such branch'}); it is not recorded` };
  return { ok: true, commit, branch, files: staged };
}
