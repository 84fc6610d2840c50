import { normalizeAbsolutePath } from './normalize-absolute-path.ts';
import { InvariantViolationError } from '../errors/index.ts';

/** Linux PATH_MAX: a longer path cannot be opened anyway. */
export const MAX_REQUESTED_PATH_LENGTH = 4096;

export type WorkspacePathRefusalCode =
  | 'empty_path'
  | 'nul_byte'
  | 'too_long'
  | 'absolute_path'
  | 'backslash'
  | 'escapes_worktree'
  | 'git_metadata';

/** A path inside the worktree (`relativePath` is `.` for the root itself), or why it was refused. */
export type WorktreePathResolution =
  | { readonly ok: true; readonly absolutePath: string; readonly relativePath: string }
  | { readonly ok: false; readonly code: WorkspacePathRefusalCode; readonly reason: string };

const HOW_TO = 'use a path relative to the root of your worktree, e.g. src/index.ts';

/**
 * Confines a path asked for by a dev agent's file tool to its worktree, lexically: refuses empty paths, NUL
 * bytes, absolute paths, backslashes, any `..` that climbs above the root (even if it would come back in),
 * and `.git` (the worktree's link to the repository: rewriting it would let the agent point the host's git at
 * hooks and config it wrote). The returned absolute path has no `.` or `..` left, so the filesystem cannot
 * reinterpret it. Symlinks are not visible here: the I/O layer compares `realpath` results with `isInside`.
 */
export function resolveInsideWorktree(
  worktreeRoot: string,
  requestedPath: string,
): WorktreePathResolution {
  const root = normalizeAbsolutePath(worktreeRoot);
  if (root === null || worktreeRoot.includes('\0')) {
    throw new InvariantViolationError(
      'worktree_root',
      `worktree root must be an absolute path, got ${JSON.stringify(worktreeRoot)}`,
    );
  }
  const shown = JSON.stringify(
    requestedPath.length > 200 ? `${requestedPath.slice(0, 200)}…` : requestedPath,
  );
  const refuse = (code: WorkspacePathRefusalCode, why: string): WorktreePathResolution => ({
    ok: false,
    code,
    reason: `path ${shown} refused: ${why}`,
  });

  if (requestedPath.trim() === '') return refuse('empty_path', `the path is empty; ${HOW_TO}`);
  if (requestedPath.includes('\0'))
    return refuse('nul_byte', `the path contains a NUL byte; ${HOW_TO}`);
  if (requestedPath.length > MAX_REQUESTED_PATH_LENGTH) {
    return refuse('too_long', `the path is longer than ${MAX_REQUESTED_PATH_LENGTH} characters`);
  }
  if (requestedPath.startsWith('/') || /^[A-Za-z]:/.test(requestedPath)) {
    return refuse('absolute_path', `absolute paths are not accepted; ${HOW_TO}`);
  }
  if (requestedPath.includes('\\'))
    return refuse('backslash', `use "/" to separate directories, not "\\"; ${HOW_TO}`);

  const segments: string[] = [];
  for (const segment of requestedPath.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0)
        return refuse('escapes_worktree', `".." climbs above the root of your worktree; ${HOW_TO}`);
      segments.pop();
    } else segments.push(segment);
  }
  if (segments.some((segment) => segment.toLowerCase() === '.git')) {
    return refuse(
      'git_metadata',
      '.git links the worktree to its repository and is managed by Forja, never through file tools',
    );
  }
  const relativePath = segments.length === 0 ? '.' : segments.join('/');
  const absolutePath = segments.length === 0 ? root : `${root === '/' ? '' : root}/${relativePath}`;
  return { ok: true, absolutePath, relativePath };
}
