import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { HostGitError, runBoundedHostGit, runHostGit, type GitLocation } from './host-git.ts';

/** How much patch text one diff answer carries at most; the rest is left out and the answer says so. */
export const MAX_DIFF_BYTES = 512 * 1024;
/** How many files one diff answer lists at most. */
export const MAX_DIFF_FILES = 1000;
/** A commit id as people and the log write it: 7 to 40 hexadecimal characters. */
export const COMMIT_SHA_PATTERN = /^[0-9a-fA-F]{7,40}$/;

/** One file a commit changed: its lines added and removed (null for a binary file). */
export interface CommitDiffFile {
  path: string;
  /** The path before a rename, else null. */
  old_path: string | null;
  additions: number | null;
  deletions: number | null;
}

/** A commit of a project's repository with what it changed against its first parent (nothing, for the first commit). */
export interface CommitDiff {
  sha: string;
  parents: string[];
  author: string;
  date: string;
  subject: string;
  body: string;
  files: CommitDiffFile[];
  /** true when the commit changed more than `MAX_DIFF_FILES` files: `files` lists the first ones. */
  files_truncated: boolean;
  /** The unified diff (`diff --git` …), at most `max_bytes`, cut at a line end. */
  patch: string;
  /** true when the diff was longer than `max_bytes` and `patch` holds its beginning only. */
  truncated: boolean;
  max_bytes: number;
}

/** Options that make git print a plain diff whatever the repository's configuration says. */
const PLAIN_DIFF = ['--no-color', '--no-ext-diff', '--no-textconv', '-M', '-r'] as const;

/**
 * Reads one commit of the repository Forja made at `repository` (its `.git` a real directory) and its diff,
 * with git pinned as `runHostGit` pins it, never through a shell, the patch bounded by `maxBytes`. `sha` must
 * match `COMMIT_SHA_PATTERN` (the caller validated it; checked again here). Returns null when the repository
 * does not exist or holds no commit by that id (an unknown or ambiguous prefix included).
 */
export async function readCommitDiff(
  repository: string,
  sha: string,
  options: { maxBytes?: number } = {},
): Promise<CommitDiff | null> {
  if (!COMMIT_SHA_PATTERN.test(sha)) return null;
  const gitDir = join(repository, '.git');
  const info = await lstat(gitDir).catch(() => null);
  if (info === null || !info.isDirectory()) return null;
  const location: GitLocation = { gitDir, workTree: null };
  const full = await runHostGit(location, [
    'rev-parse',
    '--verify',
    '--quiet',
    '--end-of-options',
    `${sha.toLowerCase()}^{commit}`,
  ]).catch((error: unknown) => {
    if (error instanceof HostGitError) return null;
    throw error;
  });
  if (full === null) return null;
  const commit = full.trim();
  const [, parentsText = '', author = '', date = '', subject = '', body = ''] = (
    await runHostGit(location, [
      'show',
      '-s',
      '--no-show-signature',
      '--format=%H%x00%P%x00%an%x00%aI%x00%s%x00%b',
      commit,
    ])
  ).split('\0');
  const parents = parentsText.split(' ').filter((parent) => parent !== '');
  // Against the first parent: a merge shows what it brought; the first commit, everything it added.
  const range = parents.length === 0 ? ['--root', commit] : [parents[0]!, commit];
  const maxBytes = options.maxBytes ?? MAX_DIFF_BYTES;
  const numstat = await runBoundedHostGit(
    location,
    ['diff-tree', ...PLAIN_DIFF, '--no-commit-id', '--numstat', '-z', ...range],
    maxBytes,
    0x00,
  );
  const files = parseNumstat(numstat.stdout);
  const patch = await runBoundedHostGit(
    location,
    ['diff-tree', ...PLAIN_DIFF, '--no-commit-id', '-p', ...range],
    maxBytes,
  );
  return {
    sha: commit,
    parents,
    author,
    date,
    subject,
    body: body.trim(),
    files: files.slice(0, MAX_DIFF_FILES),
    files_truncated: numstat.truncated || files.length > MAX_DIFF_FILES,
    patch: patch.stdout,
    truncated: patch.truncated,
    max_bytes: maxBytes,
  };
}

/**
 * `--numstat -z`: `added\tdeleted\tpath\0`, or for a rename `added\tdeleted\t\0old\0new\0`; `-` counts for a
 * binary file. An entry cut by the output bound is dropped.
 */
function parseNumstat(output: string): CommitDiffFile[] {
  const fields = output.split('\0');
  const files: CommitDiffFile[] = [];
  let at = 0;
  while (at < fields.length) {
    const head = fields[at]!.replace(/^\n/, '');
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(head);
    if (match === null) break;
    const count = (text: string) => (text === '-' ? null : Number(text));
    if (match[3] === '') {
      const oldPath = fields[at + 1];
      const newPath = fields[at + 2];
      if (oldPath === undefined || newPath === undefined) break;
      files.push({
        path: newPath,
        old_path: oldPath,
        additions: count(match[1]!),
        deletions: count(match[2]!),
      });
      at += 3;
    } else {
      files.push({
        path: match[3]!,
        old_path: null,
        additions: count(match[1]!),
        deletions: count(match[2]!),
      });
      at += 1;
    }
  }
  return files;
}
