import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockDataDirectory } from './data-directory-lock.ts';
import { DataDirectoryInUseError } from './errors/data-directory-in-use-error.ts';
import { DataDirectoryUnusableError } from './errors/data-directory-unusable-error.ts';

const newDirectory = () => mkdtempSync(join(tmpdir(), 'forja-lock-'));
/** Far above any pid this machine hands out (pid_max is at most 2^22). */
const DEAD_PROCESS_ID = 2 ** 22 + 12_345;

describe('data directory lock', () => {
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

  it('refuses a second process while the first one lives, naming it', () => {
    const directory = newDirectory();
    const lock = lockDataDirectory(directory);
    expect(() => lockDataDirectory(directory, process.pid + 1)).toThrow(DataDirectoryInUseError);
    expect(() => lockDataDirectory(directory, process.pid + 1)).toThrow(
      `in use by another Forja process (pid ${process.pid})`,
    );
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
  });

  it('takes over a lock left by a process that died', () => {
    const directory = newDirectory();
    writeFileSync(join(directory, 'forja.lock'), JSON.stringify({ pid: DEAD_PROCESS_ID }));
    const lock = lockDataDirectory(directory);
    expect(existsSync(lock.path)).toBe(true);
    lock.release();
  });

  it('does not remove a lock it does not own', () => {
    const directory = newDirectory();
    const lock = lockDataDirectory(directory);
    const stranger = { ...lock, release: () => undefined };
    stranger.release();
    expect(existsSync(lock.path)).toBe(true);
    lock.release();
  });
});
