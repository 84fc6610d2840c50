import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDirectory } from './data-directory-lock.ts';
import { DataDirectoryInUseError } from './errors/data-directory-in-use-error.ts';
import { DataDirectoryUnusableError } from './errors/data-directory-unusable-error.ts';

const TAKER = new URL('./testing/take-data-directory.ts', import.meta.url).pathname;
const newDirectory = () => mkdtempSync(join(tmpdir(), 'forja-lock-'));
/** Far above any pid this machine hands out (pid_max is at most 2^22). */
const DEAD_PROCESS_ID = 2 ** 22 + 12_345;

interface Taker {
  child: ChildProcess;
  ready: Promise<void>;
  result: Promise<{ pid: number; owner: boolean; message?: string }>;
  exited: Promise<unknown>;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A separate process that takes the directory when told to (a line on its stdin), then holds it. */
function startTaker(directory: string): Taker {
  const child = spawn(process.execPath, [TAKER, directory], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const lines = createInterface({ input: child.stdout! });
  const ready = new Promise<void>((resolve) =>
    lines.on('line', (line) => line === 'ready' && resolve()),
  );
  const result = new Promise<Taker extends { result: Promise<infer R> } ? R : never>(
    (resolve, reject) => {
      lines.on('line', (line) => line.startsWith('{') && resolve(JSON.parse(line)));
      void exited.then(() => reject(new Error('the taker exited without trying')));
    },
  );
  return { child, ready, result, exited };
}

function writeLockFile(directory: string, pid: number): void {
  writeFileSync(join(directory, 'forja.lock'), JSON.stringify({ pid }));
}

describe('data directory lock', { timeout: 120_000 }, () => {
  it('creates missing parents, one level at a time', () => {
    const directory = join(newDirectory(), 'a', 'b', 'c');
    const lock = lockDataDirectory(directory);
    expect(existsSync(lock.path)).toBe(true);
    lock.release();
  });

  it('refuses, with the reason, a directory that cannot be created instead of hanging (/proc, a file in the way)', () => {
    expect(() => lockDataDirectory('/proc/forja')).toThrow(DataDirectoryUnusableError);
    expect(() => lockDataDirectory('/proc/forja/deeper')).toThrow(
      /FORJA_DATA_DIR=\/proc\/forja\/deeper cannot be used.*ENOENT/,
    );
    const file = join(newDirectory(), 'plain-file');
    writeFileSync(file, 'x');
    expect(() => lockDataDirectory(file)).toThrow(`${file} exists and is not a directory`);
    expect(() => lockDataDirectory(join(file, 'child'))).toThrow(/ENOTDIR/);
  });

  it('refuses a second taker while the first holds it, naming the directory and the holder, and lets it go on release', () => {
    const directory = newDirectory();
    const lock = lockDataDirectory(directory);
    // Even in the same process: a second open of the lock file is a second owner, refused.
    expect(() => lockDataDirectory(directory)).toThrow(DataDirectoryInUseError);
    expect(() => lockDataDirectory(directory)).toThrow(
      `The data directory ${directory} is in use by another Forja process (pid ${process.pid})`,
    );
    lock.release();
    expect(readFileSync(lock.path, 'utf8')).toBe('');
    lockDataDirectory(directory).release();
  });

  it('says the holder is not known when the lock file names no live process', () => {
    const directory = newDirectory();
    const lock = lockDataDirectory(directory);
    writeLockFile(directory, DEAD_PROCESS_ID);
    expect(() => lockDataDirectory(directory)).toThrow(
      `The data directory ${directory} is in use by another Forja process (its pid is not known)`,
    );
    lock.release();
  });

  it('six processes taking a stale lock at the same moment: exactly one owner, every round', async () => {
    for (let round = 0; round < 6; round += 1) {
      const directory = newDirectory();
      writeLockFile(directory, DEAD_PROCESS_ID);
      const takers = Array.from({ length: 6 }, () => startTaker(directory));
      await Promise.all(takers.map((taker) => taker.ready));
      for (const taker of takers) taker.child.stdin!.write('go\n');
      const results = await Promise.all(takers.map((taker) => taker.result));
      const owners = results.filter((result) => result.owner);
      expect(owners, `round ${round}: ${JSON.stringify(results)}`).toHaveLength(1);
      for (const refused of results.filter((result) => !result.owner))
        expect(refused.message).toContain(
          `The data directory ${directory} is in use by another Forja process (pid ${owners[0]!.pid})`,
        );
      for (const taker of takers) taker.child.stdin!.end();
      await Promise.all(takers.map((taker) => taker.exited));
    }
  });

  it('a lock file naming a live process that does not hold the lock (a reused pid) does not block a start', async () => {
    const directory = newDirectory();
    const unrelated = spawn('sleep', ['60']);
    children.push(unrelated);
    writeLockFile(directory, unrelated.pid!);
    const lock = lockDataDirectory(directory);
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('kill -9 of the owner releases the directory at once', async () => {
    const directory = newDirectory();
    const owner = startTaker(directory);
    await owner.ready;
    owner.child.stdin!.write('go\n');
    expect((await owner.result).owner).toBe(true);
    expect(() => lockDataDirectory(directory)).toThrow(`(pid ${owner.child.pid})`);

    owner.child.kill('SIGKILL');
    await owner.exited;
    const lock = lockDataDirectory(directory);
    lock.release();
  });

  it('without the flock command, says what to install instead of starting unlocked', () => {
    const path = process.env.PATH;
    process.env.PATH = newDirectory();
    try {
      expect(() => lockDataDirectory(newDirectory())).toThrow(
        /needs the `flock` command \(util-linux\), which is not on PATH/,
      );
    } finally {
      process.env.PATH = path;
    }
  });

  it('a process the owner starts later does not inherit the lock', async () => {
    const directory = newDirectory();
    const lock = lockDataDirectory(directory);
    const grandchild = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(grandchild);
    lock.release();
    lockDataDirectory(directory).release();
  });
});
