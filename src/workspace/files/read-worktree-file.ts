import { constants } from 'node:fs';
import { openFinal, readOpenedDirectory, walkBeneath } from './beneath.ts';

/** Most bytes of a file shown to the model in one read. */
export const MAX_READ_BYTES = 256 * 1024;

/** A file's text (or a directory's entries), or why it cannot be read. */
export type WorktreeRead = { ok: true; text: string } | { ok: false; reason: string };

/**
 * Reads a file of the worktree (a directory answers with its entries), reached name by name without
 * following any link (`walkBeneath`); a file with more than one hard link is refused.
 */
export async function readWorktreeFile(
  worktree: string,
  requestedPath: string,
): Promise<WorktreeRead> {
  const walk = await walkBeneath(worktree, requestedPath, { create: false });
  if (!walk.ok) return walk;
  try {
    const opened = await openFinal(walk, constants.O_RDONLY, { directory: true });
    if (!opened.ok) return opened;
    const handle = opened.handle;
    try {
      const info = await handle.stat();
      if (info.isDirectory()) {
        const entries = (await readOpenedDirectory(handle))
          .filter((entry) => entry.name !== '.git')
          .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
          .sort();
        return {
          ok: true,
          text: `${walk.relativePath} is a directory: ${entries.length === 0 ? '(empty)' : entries.join(', ')}`,
        };
      }
      const buffer = Buffer.alloc(Math.min(info.size, MAX_READ_BYTES));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      const bytes = buffer.subarray(0, bytesRead);
      if (bytes.includes(0))
        return {
          ok: true,
          text: `${walk.relativePath} is a binary file of ${info.size} bytes; it is not shown`,
        };
      const cut =
        info.size > MAX_READ_BYTES
          ? `\n[… truncated: showing ${MAX_READ_BYTES} of ${info.size} bytes …]`
          : '';
      return { ok: true, text: `${bytes.toString('utf8')}${cut}` };
    } finally {
      await handle.close();
    }
  } finally {
    await walk.close();
  }
}
