import { normalizeAbsolutePath } from './normalize-absolute-path.ts';

/**
 * Whether `candidatePath` is `rootPath` or lies under it, for absolute paths compared segment by segment
 * (`/w/tree-2` is not inside `/w/tree`). The I/O layer calls it with `realpath` of both, which is how a
 * symlink leaving the worktree is caught. A relative path is never inside (deny by default).
 */
export function isInside(rootPath: string, candidatePath: string): boolean {
  const root = normalizeAbsolutePath(rootPath);
  const candidate = normalizeAbsolutePath(candidatePath);
  if (
    root === null ||
    candidate === null ||
    rootPath.includes('\0') ||
    candidatePath.includes('\0')
  )
    return false;
  if (root === '/') return true;
  return candidate === root || candidate.startsWith(`${root}/`);
}
