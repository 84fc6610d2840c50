import { Buffer } from 'node:buffer';
import { closeSync, lstatSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { openInsideSync } from '../workspace/files/beneath.ts';
import type { InstructionSkip } from './instruction-sources.ts';

// fatal: a file that is not valid UTF-8 is skipped by name rather than read with replacement characters.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isInside(rootRealPath: string, candidate: string): boolean {
  const relative = path.relative(rootRealPath, candidate);
  return (
    relative !== '' &&
    relative !== '..' &&
    !relative.startsWith(`..${path.sep}`) &&
    !path.isAbsolute(relative)
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function readBytes(
  rootRealPath: string,
  realPath: string,
  found: Stats,
  relative: string,
  maxBytes: number,
): Uint8Array | InstructionSkip {
  // Checked before opening, as the reason to give; the open itself takes nothing on trust (openInsideSync).
  if (!found.isFile()) return { path: relative, reason: 'not_regular_file' };
  if (found.size > maxBytes)
    return { path: relative, reason: 'too_large', detail: `${found.size} bytes > ${maxBytes}` };
  const opened = openInsideSync(rootRealPath, realPath);
  if (!opened.ok) return { path: relative, reason: 'unreadable', detail: opened.reason };
  try {
    // One byte more than allowed: a file that grew past the limit since the check is skipped, not cut.
    const buffer = Buffer.allocUnsafe(Math.min(opened.stat.size, maxBytes) + 1);
    const bytesRead = readSync(opened.fd, buffer, 0, buffer.length, 0);
    if (bytesRead > maxBytes)
      return { path: relative, reason: 'too_large', detail: `more than ${maxBytes} bytes` };
    return buffer.subarray(0, bytesRead);
  } catch (error) {
    // A FIFO swapped in after the check fails to read with EAGAIN: an `unreadable` skip, no hang.
    return { path: relative, reason: 'unreadable', detail: messageOf(error) };
  } finally {
    closeSync(opened.fd);
  }
}

/** A file read for its text: where it really is (duplicates share it), its content, and its stat before the read. */
export interface InstructionFileRead {
  readonly realPath: string;
  readonly content: string;
}

/** What reading one candidate gave, and the stat taken before reading it (for the freshness stamp). */
export type InstructionFileOutcome = ({ read: InstructionFileRead } | { skip: InstructionSkip }) & {
  readonly stat?: Stats;
};

/**
 * Reads one instruction file as strict UTF-8, synchronously: a few system calls per file, far cheaper than
 * the thread-pool round trips of the asynchronous calls (a cold discovery of 200 files went from ~50 ms to
 * a few). Never throws: a file that cannot be resolved or read, is not a regular file (a FIFO, a device, a
 * directory), is larger than `maxBytes`, is not valid UTF-8, is empty (or only whitespace), or is a
 * symbolic link resolving outside the workspace comes back as a named skip. The bytes are read from a
 * descriptor checked to hold a regular file inside the workspace (`openInsideSync`, ADR 0300), so a link
 * swapped in after the checks is not followed out. A leading byte-order mark is dropped.
 */
export function readInstructionFile(
  _root: string,
  rootRealPath: string,
  relative: string,
  maxBytes: number,
): InstructionFileOutcome {
  let realPath = path.join(rootRealPath, relative);
  let found: Stats;
  try {
    // Neither git nor the walker lists a path through a linked directory, so only a link itself needs
    // resolving (realpath costs a system call per path segment).
    found = lstatSync(realPath);
    if (found.isSymbolicLink()) {
      realPath = realpathSync.native(realPath);
      if (!isInside(rootRealPath, realPath)) {
        return { skip: { path: relative, reason: 'symlink_escapes_workspace', detail: realPath } };
      }
      found = statSync(realPath);
    }
  } catch (error) {
    return { skip: { path: relative, reason: 'unreadable', detail: messageOf(error) } };
  }
  const bytes = readBytes(rootRealPath, realPath, found, relative, maxBytes);
  if (!(bytes instanceof Uint8Array)) return { skip: bytes, stat: found };
  let content: string;
  try {
    content = strictUtf8.decode(bytes);
  } catch {
    return { skip: { path: relative, reason: 'not_utf8' }, stat: found };
  }
  // An empty file would cost a header and say nothing.
  if (content.trim() === '') return { skip: { path: relative, reason: 'empty' }, stat: found };
  return { read: { realPath, content }, stat: found };
}
