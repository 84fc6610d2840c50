import { readWorktreeFile } from '../files/read-worktree-file.ts';
import { writeWorktreeFile } from '../files/write-worktree-file.ts';
import { gitAt } from './git-at.ts';

/** A file Forja writes into a repository: a path relative to its root and the whole content. */
export interface RepositoryFile {
  path: string;
  content: string;
}

/**
 * Writes each file (the same file overwritten) and commits the ones that changed on the checked-out branch.
 * Each file is read and written name by name without following a link (`readWorktreeFile`,
 * `writeWorktreeFile`, ADR 0300): a path that is, or passes through, a symbolic link is refused with the
 * reason — the file it points to, in the repository or out of it, is never read or written.
 * Returns the new commit, or null when every file already had this content (nothing to record twice).
 * @throws Error naming the path and the rule when a file cannot be written.
 */
export async function commitFiles(
  repository: string,
  files: readonly RepositoryFile[],
  message: string,
): Promise<string | null> {
  const changed: string[] = [];
  for (const file of files) {
    const current = await readWorktreeFile(repository, file.path);
    if (current.ok && current.text === file.content) continue;
    const written = await writeWorktreeFile(repository, file.path, file.content);
    if (!written.ok) throw new Error(written.reason);
    changed.push(file.path);
  }
  if (changed.length === 0) return null;
  const git = gitAt(repository);
  await git.raw(['add', '--', ...changed]);
  await git.raw(['commit', '--quiet', '-m', message, '--', ...changed]);
  return (await git.raw(['rev-parse', 'HEAD'])).trim();
}
