import { open, readdir, stat } from 'node:fs/promises';
import { confinePath } from './confine-path.ts';

/** Most bytes of a file shown to the model in one read. */
export const MAX_READ_BYTES = 256 * 1024;

/** A file's text (or a directory's entries), or why it cannot be read. */
export type WorktreeRead = { ok: true; text: string } | { ok: false; reason: string };

/** Reads a file of the worktree, confined to it; a directory answers with its entries. */
export async function readWorktreeFile(worktree: string, requestedPath: string): Promise<WorktreeRead> {
  const confined = await confinePath(worktree, requestedPath);
  if (!confined.ok) return confined;
  if (!confined.exists) return { ok: false, reason: `${confined.relativePath} does not exist in your worktree` };
  const info = await stat(confined.realPath);
  if (info.isDirectory()) {
    const entries = (await readdir(confined.realPath, { withFileTypes: true }))
      .filter((entry) => entry.name !== '.git')
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .sort();
    return { ok: true, text: `${confined.relativePath} is a directory: ${entries.length === 0 ? '(empty)' : entries.join(', ')}` };
  }
  if (!info.isFile()) return { ok: false, reason: `${confined.relativePath} is not a regular file` };
  const handle = await open(confined.realPath, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(info.size, MAX_READ_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) return { ok: true, text: `${confined.relativePath} is a binary file of ${info.size} bytes; it is not shown` };
    const cut = info.size > MAX_READ_BYTES ? `\n[… truncated: showing ${MAX_READ_BYTES} of ${info.size} bytes …]` : '';
    return { ok: true, text: `${bytes.toString('utf8')}${cut}` };
  } finally {
    await handle.close();
  }
}
