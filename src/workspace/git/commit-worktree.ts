import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitAt } from './git-at.ts';

/** A commit of a module's work, or why there is none. */
export type WorktreeCommit =
  | { ok: true; commit: string; branch: string; files: string[] }
  | { ok: false; reason: string };

/**
 * Commits everything changed in a worktree (new, modified and deleted files) on its branch. Nothing to
 * commit is an expected outcome with a reason, not an error.
 */
export async function commitWorktree(worktree: string, branch: string, message: string): Promise<WorktreeCommit> {
  const git = gitAt(worktree);
  await git.raw(['add', '--all']);
  const staged = (await git.raw(['diff', '--cached', '--name-only', '-z']))
    .split('\0')
    .filter((path) => path !== '')
    .sort();
  if (staged.length === 0) {
    return { ok: false, reason: `nothing to commit on ${branch}: the worktree has no change since the last commit; write the files of the task first` };
  }
  // The message comes from the model: read from a file, it can never be taken for a git option.
  const scratch = await mkdtemp(join(tmpdir(), 'forja-commit-'));
  try {
    await writeFile(join(scratch, 'message'), message, 'utf8');
    await git.raw(['commit', '--quiet', '--file', join(scratch, 'message')]);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const commit = (await git.raw(['rev-parse', 'HEAD'])).trim();
  return { ok: true, commit, branch, files: staged };
}
