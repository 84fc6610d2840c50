import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** What git says of a workspace: the files of the given names, and the index file whose changes mark new ones. */
export interface GitListing {
  readonly found: string[];
  /** Absolute path of the repository's index. */
  readonly indexPath: string;
}

const MAX_LISTING_BYTES = 1024 * 1024 * 1024;
/** A listing that takes longer is killed, and the caller walks the files instead. */
const LISTING_TIMEOUT_MS = 60_000;

function git(
  directory: string,
  args: readonly string[],
): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...args],
      {
        cwd: directory,
        encoding: 'utf8',
        maxBuffer: MAX_LISTING_BYTES,
        timeout: LISTING_TIMEOUT_MS,
        killSignal: 'SIGKILL',
      },
      (error, stdout) => {
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1,
          stdout,
        });
      },
    );
  });
}

/**
 * The index of the repository `directory` is in, found as git finds its directory: the nearest `.git`
 * upwards, a directory or a `gitdir:` file (a worktree, a submodule). Null when there is none.
 */
export function findGitIndex(directory: string): string | null {
  for (let current = path.resolve(directory); ; current = path.dirname(current)) {
    const dotGit = path.join(current, '.git');
    const found = statSync(dotGit, { throwIfNoEntry: false });
    if (found?.isDirectory()) return path.join(dotGit, 'index');
    if (found?.isFile()) {
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
      if (pointer?.[1] !== undefined) return path.join(path.resolve(current, pointer[1]), 'index');
    }
    if (path.dirname(current) === current) return null;
  }
}

/**
 * The files named one of `fileNames` in the workspace by git's own view: `git ls-files -co
 * --exclude-standard -z`, tracked files (ignored directories included) and untracked ones git does not
 * ignore, paths relative to `directory`. Null when `directory` is not inside a git work tree or git cannot
 * run, so the caller walks instead. Every file is listed and filtered here: a glob pathspec makes git
 * slower than printing them all.
 */
export async function listGitFiles(
  directory: string,
  fileNames: readonly string[],
): Promise<GitListing | null> {
  const indexPath = findGitIndex(directory);
  if (indexPath === null) return null;
  const listing = await git(directory, [
    '-c',
    'core.quotePath=off',
    'ls-files',
    '-co',
    '--exclude-standard',
    '-z',
  ]);
  if (listing.code !== 0) return null;
  const names = new Set(fileNames);
  const found = new Set<string>();
  for (const entry of listing.stdout.split('\0')) {
    if (names.has(entry.slice(entry.lastIndexOf('/') + 1))) found.add(entry);
  }
  return { found: [...found], indexPath };
}
