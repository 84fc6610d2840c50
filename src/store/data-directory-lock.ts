import { spawnSync } from 'node:child_process';
import {
  closeSync,
  constants,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { DataDirectoryInUseError } from './errors/data-directory-in-use-error.ts';
import { DataDirectoryUnusableError } from './errors/data-directory-unusable-error.ts';

export const LOCK_FILE_NAME = 'forja.lock';
/**
 * `flock -n`'s exit code when another holds the lock (its default for `-E`, kept so any flock(1) will do); its
 * own failures exit with the sysexits codes (64 and up).
 */
const HELD_ELSEWHERE = 1;
/** How long a refused start waits for a holder that has just taken the lock to write its pid. */
const HOLDER_PID_WAIT_MS = 3_000;

export interface DataDirectoryLock {
  readonly path: string;
  release(): void;
}

/**
 * Takes the embedded data directory for this process (ADR 0175). PGlite is a single-process database: a
 * second process opening the same files would corrupt them, so the second one gets a clear error instead.
 *
 * The lock is a kernel `flock` on `forja.lock`, held by this process's open file: the kernel releases it when
 * the process ends, however it ends (kill -9 included), so there is no stale lock to judge by its pid and no
 * race between processes taking one over. Node has no flock call: the util-linux `flock` command takes the lock
 * on the descriptor this process passes it as fd 3 — the same open file description — and exits; the lock stays
 * with the description, which this process keeps open (Node opens it close-on-exec, so later children do not
 * inherit it). The file holds the owner's pid only to name it in the refusal; it is never removed (removing it
 * would let two processes lock two different files of the same name).
 */
export function lockDataDirectory(
  dataDirectory: string,
  processId = process.pid,
): DataDirectoryLock {
  makeDirectory(dataDirectory, dataDirectory);
  const path = join(dataDirectory, LOCK_FILE_NAME);
  let descriptor: number;
  try {
    descriptor = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o644);
  } catch (error) {
    throw new DataDirectoryUnusableError(dataDirectory, reasonOf(error));
  }
  try {
    takeFlock(descriptor, dataDirectory, path);
  } catch (error) {
    closeSync(descriptor);
    throw error;
  }
  ftruncateSync(descriptor, 0);
  writeSync(
    descriptor,
    JSON.stringify({ pid: processId, started_at: new Date().toISOString() }),
    0,
  );
  let released = false;
  return {
    path,
    release: () => {
      if (released) return;
      released = true;
      // Emptied while still held, so the next owner never reads this pid as its own holder.
      ftruncateSync(descriptor, 0);
      closeSync(descriptor);
    },
  };
}

function takeFlock(descriptor: number, dataDirectory: string, path: string): void {
  // `-n` never waits for the lock; the time limit only guards against a flock that hangs.
  const taken = spawnSync('flock', ['-n', '-x', '3'], {
    stdio: ['ignore', 'ignore', 'pipe', descriptor],
    encoding: 'utf8',
    timeout: 10_000,
    killSignal: 'SIGKILL',
  });
  if (taken.error !== undefined) {
    const missing = isCode(taken.error, 'ENOENT');
    throw new DataDirectoryUnusableError(
      dataDirectory,
      missing
        ? 'locking it needs the `flock` command (util-linux), which is not on PATH — install util-linux, or set DATABASE_URL to a PostgreSQL server'
        : `flock could not be run: ${taken.error.message}`,
    );
  }
  if (taken.status === 0) return;
  if (taken.status === HELD_ELSEWHERE)
    throw new DataDirectoryInUseError(dataDirectory, readLiveHolder(path));
  throw new DataDirectoryUnusableError(
    dataDirectory,
    `flock ${path} failed (${taken.status ?? taken.signal}): ${taken.stderr.trim()}`,
  );
}

/**
 * The pid the holder wrote. A holder that has just taken the lock writes it a moment later; until then the file
 * may still name a process that died holding it — so a pid that is not alive is read again, briefly.
 */
function readLiveHolder(path: string): number | null {
  const waitUntil = Date.now() + HOLDER_PID_WAIT_MS;
  for (;;) {
    const holder = readHolder(path);
    if (holder !== null && isAlive(holder)) return holder;
    if (Date.now() >= waitUntil) return null;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
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
