import { execFile } from 'node:child_process';
import path from 'node:path';

/** What git says of a workspace: the files of the given names, and the index file whose changes mark new ones. */
export interface GitListing {
  readonly found: string[];
  /** Absolute path of the repository's index (`git rev-parse --git-path index`). */
  readonly indexPath: string;
}

const MAX_LISTING_BYTES = 256 * 1024 * 1024;

function git(directory: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', [...args], { cwd: directory, encoding: 'utf8', maxBuffer: MAX_LISTING_BYTES }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The files named one of `fileNames` in the workspace by git's own view: `git ls-files -co
 * --exclude-standard -z`, tracked files (ignored directories included) and untracked ones git does not
 * ignore, paths relative to `directory`. Null when `directory` is not inside a git work tree or git cannot
 * run, so the caller walks instead. The names go in as pathspecs, so git prints only those files.
 */
export async function listGitFiles(directory: string, fileNames: readonly string[]): Promise<GitListing | null> {
  const pathspecs = fileNames.map((name) => `:(glob)**/${name}`);
  const [listing, indexPath] = await Promise.all([
    git(directory, ['-c', 'core.quotePath=off', 'ls-files', '-co', '--exclude-standard', '-z', '--', ...pathspecs]),
    git(directory, ['rev-parse', '--git-path', 'index']),
  ]);
  if (listing.code !== 0 || indexPath.code !== 0) return null;
  // A pathspec also matches what is under a directory of that name: keep the files of those names only.
  const names = new Set(fileNames);
  const found = [...new Set(listing.stdout.split('\0').filter((entry) => names.has(entry.slice(entry.lastIndexOf('/') + 1))))];
  return { found, indexPath: path.resolve(directory, indexPath.stdout.trim()) };
}
