import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { isInside, resolveInsideWorktree } from '../../domain/workspace-paths/index.ts';

/** A path a file tool may use: `realPath` is where the bytes are, inside the worktree. */
export type ConfinedPath =
  | { ok: true; realPath: string; relativePath: string; exists: boolean }
  | { ok: false; reason: string };

/**
 * Confines a path a dev agent asked for to its worktree, in two steps. Lexically (`resolveInsideWorktree`):
 * no absolute path, no `..` above the root, no `.git`. Then on disk: the deepest part of the path that
 * exists is resolved with `realpath` and must still be inside the worktree's own `realpath`, which is how a
 * symbolic link leading out is caught; a link whose target does not exist is refused too (writing through it
 * would create a file wherever it points). Nothing is created here.
 */
export async function confinePath(worktree: string, requestedPath: string): Promise<ConfinedPath> {
  const root = await realpath(worktree);
  const lexical = resolveInsideWorktree(root, requestedPath);
  if (!lexical.ok) return { ok: false, reason: lexical.reason };
  const shown = JSON.stringify(requestedPath);

  let existing = lexical.absolutePath;
  const missing: string[] = [];
  for (;;) {
    const entry = await lstat(existing).catch(() => null);
    if (entry !== null) break;
    missing.unshift(basename(existing));
    existing = dirname(existing);
  }
  const resolved = await realpath(existing).catch(() => null);
  if (resolved === null) {
    return { ok: false, reason: `path ${shown} refused: it goes through a symbolic link whose target does not exist; nothing was read or written` };
  }
  if (!isInside(root, resolved)) {
    return { ok: false, reason: `path ${shown} refused: a symbolic link leads outside your worktree; only files of your worktree can be used` };
  }
  const realPath = join(resolved, ...missing);
  const relativePath = relative(root, realPath) || '.';
  if (relativePath.split('/').some((segment) => segment.toLowerCase() === '.git')) {
    return { ok: false, reason: `path ${shown} refused: a symbolic link leads into .git, which is managed by Forja` };
  }
  return { ok: true, realPath, relativePath, exists: missing.length === 0 };
}
