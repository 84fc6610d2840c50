import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { DataDirectoryInUseError } from './errors/data-directory-in-use-error.ts';
import { DataDirectoryUnusableError } from './errors/data-directory-unusable-error.ts';

const LOCK_FILE_NAME = 'forja.lock';

export interface DataDirectoryLock {
  readonly path: string;
  release(): void;
}

/**
 * Takes the embedded data directory for this process. PGlite is a single-process database: a second process
 * opening the same files would corrupt them, so the second one gets a clear error instead. A lock left by a
 * process that died is taken over.
 */
export function lockDataDirectory(
  dataDirectory: string,
  processId = process.pid,
): DataDirectoryLock {
  makeDirectory(dataDirectory, dataDirectory);
  const path = join(dataDirectory, LOCK_FILE_NAME);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const descriptor = openSync(path, 'wx');
      writeSync(
        descriptor,
        JSON.stringify({ pid: processId, started_at: new Date().toISOString() }),
      );
      closeSync(descriptor);
      return { path, release: () => releaseIfOwned(path, processId) };
    } catch (error) {
      if (!isCode(error, 'EEXIST'))
        throw new DataDirectoryUnusableError(dataDirectory, reasonOf(error));
      const holder = readHolder(path);
      if (holder !== null && holder !== processId && isAlive(holder))
        throw new DataDirectoryInUseError(dataDirectory, holder);
      unlinkSync(path);
    }
  }
  throw new DataDirectoryInUseError(dataDirectory, readHolder(path));
}

/**
 * `mkdir -p`, one level at a time. Not `mkdirSync(…, { recursive: true })`: on a path the kernel refuses with
 * ENOENT although its parent exists (`/proc/forja`), Node's recursive mkdir retries forever and Forja hung.
 */
function makeDirectory(path: string, dataDirectory: string): void {
  try {
    mkdirSync(path);
    return;
  } catch (error) {
    if (isCode(error, 'EEXIST')) return requireDirectory(path, dataDirectory);
    if (!isCode(error, 'ENOENT') || dirname(path) === path)
      throw new DataDirectoryUnusableError(dataDirectory, reasonOf(error));
  }
  makeDirectory(dirname(path), dataDirectory);
  try {
    mkdirSync(path);
  } catch (error) {
    if (isCode(error, 'EEXIST')) return requireDirectory(path, dataDirectory);
    throw new DataDirectoryUnusableError(dataDirectory, reasonOf(error));
  }
}

function requireDirectory(path: string, dataDirectory: string): void {
  if (!statSync(path).isDirectory())
    throw new DataDirectoryUnusableError(dataDirectory, `${path} exists and is not a directory`);
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function releaseIfOwned(path: string, processId: number): void {
  if (readHolder(path) === processId) unlinkSync(path);
}

function readHolder(path: string): number | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    const pid = (parsed as { pid?: unknown }).pid;
    return typeof pid === 'number' ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(processId: number): boolean {
  try {
    process.kill(processId, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else — still alive.
    return isCode(error, 'EPERM');
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
