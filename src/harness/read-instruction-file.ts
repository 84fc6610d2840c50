import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { InstructionSkip } from './instruction-sources.ts';

// fatal: a file that is not valid UTF-8 is skipped by name rather than read with replacement characters.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isInside(rootRealPath: string, candidate: string): boolean {
  const relative = path.relative(rootRealPath, candidate);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function readBytes(realPath: string, relative: string, maxBytes: number): Promise<Uint8Array | InstructionSkip> {
  // Checked before opening: opening a FIFO for reading blocks until a writer comes, which may be never.
  const found = await stat(realPath).catch((error: unknown) => error as Error);
  if (found instanceof Error) return { path: relative, reason: 'unreadable', detail: messageOf(found) };
  if (!found.isFile()) return { path: relative, reason: 'not_regular_file' };
  let handle;
  try {
    // O_NONBLOCK too, should the path be swapped for a FIFO between the check and the open.
    handle = await open(realPath, constants.O_RDONLY | constants.O_NONBLOCK);
    const opened = await handle.stat();
    if (!opened.isFile()) return { path: relative, reason: 'not_regular_file' };
    if (opened.size > maxBytes) return { path: relative, reason: 'too_large', detail: `${opened.size} bytes > ${maxBytes}` };
    return await handle.readFile();
  } catch (error) {
    return { path: relative, reason: 'unreadable', detail: messageOf(error) };
  } finally {
    await handle?.close();
  }
}

/** A file read for its text: where it really is (duplicates share it) and its content. */
export interface InstructionFileRead {
  readonly realPath: string;
  readonly content: string;
}

/**
 * Reads one instruction file as strict UTF-8. Never throws: a file that cannot be resolved or read, is not
 * a regular file (a FIFO, a device, a directory), is larger than `maxBytes`, is not valid UTF-8, is empty
 * (or only whitespace), or is a symbolic link resolving outside the workspace comes back as a named skip.
 * A leading byte-order mark is dropped.
 */
export async function readInstructionFile(
  root: string,
  rootRealPath: string,
  relative: string,
  maxBytes: number,
): Promise<{ read: InstructionFileRead } | { skip: InstructionSkip }> {
  let realPath: string;
  try {
    realPath = await realpath(path.join(root, relative));
  } catch (error) {
    return { skip: { path: relative, reason: 'unreadable', detail: messageOf(error) } };
  }
  if (!isInside(rootRealPath, realPath)) {
    return { skip: { path: relative, reason: 'symlink_escapes_workspace', detail: realPath } };
  }
  const bytes = await readBytes(realPath, relative, maxBytes);
  if (!(bytes instanceof Uint8Array)) return { skip: bytes };
  let content: string;
  try {
    content = strictUtf8.decode(bytes);
  } catch {
    return { skip: { path: relative, reason: 'not_utf8' } };
  }
  // An empty file would cost a header and say nothing.
  if (content.trim() === '') return { skip: { path: relative, reason: 'empty' } };
  return { read: { realPath, content } };
}
