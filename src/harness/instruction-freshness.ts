import { statSync } from 'node:fs';
import path from 'node:path';
import { INSTRUCTION_FILE_NAMES } from './order-instruction-paths.ts';

/**
 * A stat taken within this long before discovery started cannot be trusted to tell a later edit apart:
 * file times come from a coarse kernel clock (a tick of up to ~10 ms behind), so an edit right after the
 * stat could leave mtime and size as they were. Such a stamp is stored as unknown, which makes the next
 * check read again, as git does with its "racily clean" entries.
 */
export const RACY_WINDOW_MS = 50;

const UNKNOWN = 'unknown';

/** What one discovery was based on, to tell cheaply on the next load whether it still holds. */
export interface FreshnessBasis {
  readonly workspaceDir: string;
  readonly startedAtMs: number;
  /** Absolute path → stamp of every candidate file, the git index or the directories walked. */
  readonly stamps: ReadonlyMap<string, string>;
  /** The candidate paths (workspace-relative) the discovery listed. */
  readonly listed: ReadonlySet<string>;
}

/** mtime, ctime, size and inode of `absolutePath` (following links), or `none`. */
export function stampOf(absolutePath: string): string {
  const found = statSync(absolutePath, { throwIfNoEntry: false });
  return found === undefined
    ? 'none'
    : `${found.mtimeMs}:${found.ctimeMs}:${found.size}:${found.ino}`;
}

/** The stamp to keep for a path stat'ed now (or `found`, its stat), for a discovery that started at `startedAtMs`. */
export function trustedStampOf(
  absolutePath: string,
  startedAtMs: number,
  found = statSync(absolutePath, { throwIfNoEntry: false }),
): string {
  if (found === undefined) return 'none';
  // mtime alone: an edit after an old mtime moves it, whatever ctime says (utimes or a rename set only that).
  if (found.mtimeMs >= startedAtMs - RACY_WINDOW_MS) return UNKNOWN;
  return `${found.mtimeMs}:${found.ctimeMs}:${found.size}:${found.ino}`;
}

function directoriesOnPath(scope: string): string[] {
  const directories = [''];
  if (scope === '') return directories;
  const parts = scope.split('/');
  for (let index = 1; index <= parts.length; index++)
    directories.push(parts.slice(0, index).join('/'));
  return directories;
}

/**
 * Whether a discovery still holds for a load scoped to `scope` (workspace-relative, '' for the root): every
 * stamp is as it was (an edited, removed or replaced file; a new commit or `git add`, through the index; in a
 * walked workspace, an entry added to or removed from any directory), and no instruction file has appeared
 * on the path from the root to `scope` since the discovery started. A few hundred `stat` calls, no reads.
 */
export function isStillFresh(basis: FreshnessBasis, scope: string): boolean {
  for (const [absolutePath, stamp] of basis.stamps) {
    if (stamp === UNKNOWN || stampOf(absolutePath) !== stamp) return false;
  }
  for (const directory of directoriesOnPath(scope)) {
    for (const name of INSTRUCTION_FILE_NAMES) {
      const relative = directory === '' ? name : `${directory}/${name}`;
      if (basis.listed.has(relative)) continue;
      const found = statSync(path.join(basis.workspaceDir, relative), { throwIfNoEntry: false });
      // One older than the discovery was there and not listed (git ignores it): no news. ctime too, for a
      // file moved in (a rename keeps its mtime).
      if (
        found !== undefined &&
        Math.max(found.mtimeMs, found.ctimeMs) >= basis.startedAtMs - RACY_WINDOW_MS
      )
        return false;
    }
  }
  return true;
}
