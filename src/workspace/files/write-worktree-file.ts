import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, rename, unlink } from 'node:fs/promises';
import { at, walkBeneath } from './beneath.ts';

/** Most bytes one write may carry. */
export const MAX_WRITE_BYTES = 1024 * 1024;

export type WorktreeWrite =
  | { ok: true; relativePath: string; bytes: number }
  | { ok: false; reason: string };

/**
 * Writes a whole file of the worktree (created or replaced), reached name by name without following any
 * link (`walkBeneath`: missing directories are made on the way, each inside the directory just opened).
 * The bytes go to a new file made in that directory (O_CREAT|O_EXCL|O_NOFOLLOW), which is then renamed over
 * the name: an existing file is replaced, never written into, so whatever the name pointed to — a link, a
 * file with another name outside — is left as it was. A name that is a link, a directory or a file with
 * more than one hard link is refused with the reason; a refused path writes no file.
 */
export async function writeWorktreeFile(
  worktree: string,
  requestedPath: string,
  content: string,
): Promise<WorktreeWrite> {
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_WRITE_BYTES)
    return {
      ok: false,
      reason: `content is ${bytes} bytes; one write takes at most ${MAX_WRITE_BYTES} bytes — split the file`,
    };
  const walk = await walkBeneath(worktree, requestedPath, { create: true });
  if (!walk.ok) return walk;
  const refuse = (why: string): WorktreeWrite => ({
    ok: false,
    reason: `${walk.relativePath} cannot be written: ${why}`,
  });
  try {
    if (walk.name === null)
      return { ok: false, reason: 'the path names the root of your worktree, not a file' };
    const target = at(walk.parent, walk.name);
    const existing = await lstat(target).catch(() => null);
    if (existing !== null) {
      if (existing.isSymbolicLink())
        return refuse('it is a symbolic link; file tools never follow links');
      if (existing.isDirectory()) return refuse('it is a directory');
      if (!existing.isFile()) return refuse('it is not a regular file');
      if (existing.nlink !== 1)
        return refuse(
          `it has ${existing.nlink} hard links; a file with more than one link may be a file outside your worktree, so file tools do not use it`,
        );
    }
    const scratch = at(walk.parent, `.forja-write-${randomUUID()}`);
    const handle = await open(
      scratch,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o644,
    ).catch((error: NodeJS.ErrnoException) => error);
    if (!('fd' in handle))
      return refuse(
        handle.code === 'ENOENT'
          ? 'its directory was removed meanwhile'
          : `it could not be created (${handle.code ?? handle.message})`,
      );
    try {
      await handle.writeFile(content, 'utf8');
      if (existing !== null) await handle.chmod(existing.mode & 0o777);
    } finally {
      await handle.close();
    }
    const renamed = await rename(scratch, target).then(
      () => null,
      (error: NodeJS.ErrnoException) => error,
    );
    if (renamed !== null) {
      await unlink(scratch).catch(() => undefined);
      return refuse(
        renamed.code === 'EISDIR'
          ? 'it is a directory'
          : `it could not be replaced (${renamed.code ?? renamed.message})`,
      );
    }
    return { ok: true, relativePath: walk.relativePath, bytes };
  } finally {
    await walk.close();
  }
}
