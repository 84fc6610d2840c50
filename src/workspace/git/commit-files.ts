import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gitAt } from './git-at.ts';

/** A file Forja writes into a repository: a path relative to its root and the whole content. */
export interface RepositoryFile {
  path: string;
  content: string;
}

/**
 * Writes each file (the same file overwritten) and commits the ones that changed on the checked-out branch.
 * Returns the new commit, or null when every file already had this content (nothing to record twice).
 */
export async function commitFiles(
  repository: string,
  files: readonly RepositoryFile[],
  message: string,
): Promise<string | null> {
  const changed: string[] = [];
  for (const file of files) {
    const absolute = join(repository, file.path);
    if ((await readFile(absolute, 'utf8').catch(() => null)) === file.content) continue;
    await mkdir(dirname(absolute), { recursive: true });
    await writeFile(absolute, file.content, 'utf8');
    changed.push(file.path);
  }
  if (changed.length === 0) return null;
  const git = gitAt(repository);
  await git.raw(['add', '--', ...changed]);
  await git.raw(['commit', '--quiet', '-m', message, '--', ...changed]);
  return (await git.raw(['rev-parse', 'HEAD'])).trim();
}
