import type { Dirent } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { isIgnored, withGitignore, type GitignoreChain } from './gitignore-rules.ts';
import type { InstructionSkip } from './instruction-sources.ts';

// Enough directory reads in flight to keep libuv's four threads busy on a cold disk, few enough that the
// queue of pending reads stays small on a wide tree.
const WALK_CONCURRENCY = 16;

interface PendingDirectory {
  readonly relative: string;
  readonly chain: GitignoreChain;
}

/** Every file with one of the given names under a workspace, the directories entered, and those unreadable. */
export interface WalkResult {
  readonly found: string[];
  /** Every directory the walk read ('' for the root): their mtimes tell the loader a file was added or removed. */
  readonly directories: string[];
  readonly skipped: InstructionSkip[];
}

async function gitignoreChainFor(directory: string, pending: PendingDirectory, entries: Dirent[]) {
  const gitignore = entries.find((entry) => entry.name === '.gitignore' && !entry.isDirectory());
  if (gitignore === undefined) return pending.chain;
  try {
    return withGitignore(
      pending.chain,
      pending.relative,
      await readFile(path.join(directory, '.gitignore'), 'utf8'),
    );
  } catch {
    return pending.chain; // git, too, goes on without rules it cannot read
  }
}

async function visit(
  root: string,
  fileNames: ReadonlySet<string>,
  pending: PendingDirectory,
  result: WalkResult,
) {
  const directory = pending.relative === '' ? root : path.join(root, pending.relative);
  let entries: Dirent[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    if (pending.relative === '') throw error; // the workspace itself is the caller's to check
    result.skipped.push({
      path: pending.relative,
      reason: 'unreadable',
      detail: (error as Error).message,
    });
    return [];
  }
  result.directories.push(pending.relative);
  const chain = await gitignoreChainFor(directory, pending, entries);
  const children: PendingDirectory[] = [];
  for (const entry of entries) {
    if (entry.name === '.git') continue;
    const relative = pending.relative === '' ? entry.name : `${pending.relative}/${entry.name}`;
    // Symbolic links to directories are not followed (as `find` does by default): no cycles, no escape.
    if (entry.isDirectory()) {
      if (!isIgnored(chain, relative, true)) children.push({ relative, chain });
    } else if (
      (entry.isFile() || entry.isSymbolicLink()) &&
      fileNames.has(entry.name) &&
      !isIgnored(chain, relative, false)
    ) {
      // Regular files and links only, as git lists: a FIFO or a socket is no file of the tree.
      result.found.push(relative);
    }
  }
  return children;
}

/**
 * Walks `root` for files named one of `fileNames`, skipping every `.git` and whatever the workspace's
 * `.gitignore` files (root and nested) ignore: git's rules, for a workspace that is not a git repository.
 * Directories are read concurrently; the order of `found` is arbitrary, callers sort. An unreadable
 * subdirectory is a named skip; an unreadable root rejects.
 */
export function walkWorkspace(root: string, fileNames: readonly string[]): Promise<WalkResult> {
  const names = new Set(fileNames);
  const result: WalkResult = { found: [], directories: [], skipped: [] };
  const queue: PendingDirectory[] = [{ relative: '', chain: [] }];
  let active = 0;
  return new Promise((resolve, reject) => {
    let failed = false;
    const pump = (): void => {
      if (failed) return;
      if (queue.length === 0 && active === 0) return resolve(result);
      while (active < WALK_CONCURRENCY && queue.length > 0) {
        const pending = queue.pop() as PendingDirectory;
        active++;
        visit(root, names, pending, result).then(
          (children) => {
            active--;
            queue.push(...children);
            pump();
          },
          (error: unknown) => {
            failed = true;
            reject(error);
          },
        );
      }
    };
    pump();
  });
}
