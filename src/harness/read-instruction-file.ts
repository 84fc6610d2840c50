import { open, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { InstructionSkip, InstructionSource } from './instruction-sources.ts';

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
  let handle;
  try {
    handle = await open(realPath, 'r');
    const stat = await handle.stat();
    if (!stat.isFile()) return { path: relative, reason: 'unreadable', detail: 'not a regular file' };
    if (stat.size > maxBytes) return { path: relative, reason: 'too_large', detail: `${stat.size} bytes > ${maxBytes}` };
    return await handle.readFile();
  } catch (error) {
    return { path: relative, reason: 'unreadable', detail: messageOf(error) };
  } finally {
    await handle?.close();
  }
}

/**
 * Reads one instruction file as strict UTF-8. Never throws: a file that cannot be resolved or read, is
 * larger than `maxBytes`, is not valid UTF-8, or is a symbolic link resolving outside the workspace comes
 * back as a named skip. A leading byte-order mark is dropped.
 */
export async function readInstructionFile(
  root: string,
  rootRealPath: string,
  relative: string,
  maxBytes: number,
): Promise<{ source: InstructionSource } | { skip: InstructionSkip }> {
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
  try {
    const priorityKind = relative.includes('/') ? 'dir' : 'root';
    return { source: { id: relative, content: strictUtf8.decode(bytes), priority_kind: priorityKind } };
  } catch {
    return { skip: { path: relative, reason: 'not_utf8' } };
  }
}
