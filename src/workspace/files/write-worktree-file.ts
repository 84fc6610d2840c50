import { constants } from 'node:fs';
import { openFinal, walkBeneath } from './beneath.ts';

/** Most bytes one write may carry. */
export const MAX_WRITE_BYTES = 1024 * 1024;

export type WorktreeWrite = { ok: true; relativePath: string; bytes: number } | { ok: false; reason: string };

/**
 * Writes a whole file of the worktree (created or replaced), reached name by name without following any
 * link (`walkBeneath`: missing directories are made on the way, each inside the directory just opened).
 * The file is opened with O_NOFOLLOW, checked through its descriptor to be a regular file with one link,
 * and only then emptied and written. A refused path writes no file.
 */
export async function writeWorktreeFile(worktree: string, requestedPath: string, content: string): Promise<WorktreeWrite> {
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_WRITE_BYTES) return { ok: false, reason: `content is ${bytes} bytes; one write takes at most ${MAX_WRITE_BYTES} bytes — split the file` };
  const walk = await walkBeneath(worktree, requestedPath, { create: true });
  if (!walk.ok) return walk;
  try {
    const opened = await openFinal(walk, constants.O_WRONLY | constants.O_CREAT, { directory: false });
    if (!opened.ok) return { ok: false, reason: opened.reason.replace(/ refused: /, ' cannot be written: ') };
    try {
      await opened.handle.truncate(0);
      await opened.handle.writeFile(content, 'utf8');
    } finally {
      await opened.handle.close();
    }
    return { ok: true, relativePath: walk.relativePath, bytes };
  } finally {
    await walk.close();
  }
}
