import { constants } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { confinePath } from './confine-path.ts';

/** Most bytes one write may carry. */
export const MAX_WRITE_BYTES = 1024 * 1024;

export type WorktreeWrite = { ok: true; relativePath: string; bytes: number } | { ok: false; reason: string };

/**
 * Writes a whole file of the worktree (created or replaced), confined to it: a refused path writes
 * nothing, not even a directory. The file is opened with O_NOFOLLOW at the resolved location, so a link
 * swapped in after the check is not followed.
 */
export async function writeWorktreeFile(worktree: string, requestedPath: string, content: string): Promise<WorktreeWrite> {
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_WRITE_BYTES) return { ok: false, reason: `content is ${bytes} bytes; one write takes at most ${MAX_WRITE_BYTES} bytes — split the file` };
  const confined = await confinePath(worktree, requestedPath);
  if (!confined.ok) return confined;
  if (confined.relativePath === '.') return { ok: false, reason: 'the path names the root of your worktree, not a file' };
  await mkdir(dirname(confined.realPath), { recursive: true });
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
  const handle = await open(confined.realPath, flags, 0o644).catch((error: NodeJS.ErrnoException) => error);
  if (!('write' in handle)) {
    const why = handle.code === 'EISDIR' ? 'it is a directory' : handle.code === 'ELOOP' ? 'it is a symbolic link' : handle.message;
    return { ok: false, reason: `${confined.relativePath} cannot be written: ${why}` };
  }
  try {
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
  return { ok: true, relativePath: confined.relativePath, bytes };
}
