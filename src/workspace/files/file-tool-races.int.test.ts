import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readWorktreeFile } from './read-worktree-file.ts';
import { searchWorktree } from './search-worktree.ts';
import { writeWorktreeFile } from './write-worktree-file.ts';

const ATTEMPTS = 3000;

/**
 * A process of its own (so it truly runs while the tools do) that swaps `name` in `worktree`, as fast as it
 * can, between a real entry and a link to `outside` (or, for `hard`, a hard link to a file outside).
 * Every operation may fail (the tool may have just made the entry): it goes on.
 */
function startSwapper(
  worktree: string,
  name: string,
  outside: string,
  kind: 'directory' | 'file' | 'hard',
): ChildProcess {
  const source = `
    const fs = require('node:fs');
    const [target, outside, kind] = process.argv.slice(1);
    const quiet = (work) => { try { work(); } catch {} };
    for (;;) {
      quiet(() => fs.rmSync(target, { recursive: true, force: true }));
      quiet(() => (kind === 'hard' ? fs.linkSync(outside, target) : fs.symlinkSync(outside, target)));
      quiet(() => fs.rmSync(target, { recursive: true, force: true }));
      quiet(() => (kind === 'directory' ? fs.mkdirSync(target) : fs.writeFileSync(target, 'inside')));
    }`;
  return spawn(process.execPath, ['-e', source, join(worktree, name), outside, kind], {
    stdio: 'ignore',
  });
}

/** Every file under `directory`, with its content (links not followed). */
async function filesUnder(directory: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const entry of await readdir(directory, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      found[join(entry.parentPath, entry.name)] = await readFile(
        join(entry.parentPath, entry.name),
        'utf8',
      );
  }
  return found;
}

describe('the file tools against a concurrent swapper', () => {
  let root: string;
  let worktree: string;
  let outside: string;
  let swapper: ChildProcess | null = null;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'forja-races-'));
    worktree = join(root, 'worktree');
    outside = join(root, 'outside');
    await mkdir(worktree);
    await mkdir(outside);
    await writeFile(join(outside, 'secret.txt'), 'outside');
  });
  afterEach(async () => {
    swapper?.kill('SIGKILL');
    swapper = null;
    await rm(root, { recursive: true, force: true });
  });
  const swapping = async (name: string, target: string, kind: 'directory' | 'file' | 'hard') => {
    swapper = startSwapper(worktree, name, target, kind);
    await new Promise((resolve) => swapper!.once('spawn', resolve));
  };

  it(`writes nothing outside in ${ATTEMPTS} writes through an intermediate directory swapped with a link out`, {
    timeout: 240_000,
  }, async () => {
    await swapping('a', outside, 'directory');
    const outcomes = { written: 0, refused: 0 };
    const reasons = new Set<string>();
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const written = await writeWorktreeFile(worktree, `a/b/file-${attempt}.txt`, 'pwned').catch(
        (error: Error) => ({ ok: false as const, reason: `threw ${error.message}` }),
      );
      outcomes[written.ok ? 'written' : 'refused'] += 1;
      if (!written.ok) reasons.add(written.reason.replace(/file-\d+/, 'file-N'));
    }
    swapper!.kill('SIGKILL');
    const escaped = Object.keys(await filesUnder(outside)).filter(
      (path) => path !== join(outside, 'secret.txt'),
    );
    expect({ attempts: outcomes.written + outcomes.refused, escaped: escaped.length }).toEqual({
      attempts: ATTEMPTS,
      escaped: 0,
    });
    expect(outcomes.written).toBeGreaterThan(0);
    for (const reason of reasons)
      expect(reason).toMatch(
        /is a symbolic link; file tools never follow links|does not exist|is a file, not a directory|cannot be opened|could not be replaced|was removed meanwhile/,
      );
  });

  it(`writes nothing outside in ${ATTEMPTS} writes to a file swapped with a link to a file outside, or a hard link to it`, {
    timeout: 240_000,
  }, async () => {
    for (const kind of ['file', 'hard'] as const) {
      await swapping(`leaf-${kind}.txt`, join(outside, 'secret.txt'), kind);
      for (let attempt = 0; attempt < ATTEMPTS / 2; attempt += 1) {
        const written = await writeWorktreeFile(worktree, `leaf-${kind}.txt`, 'pwned');
        if (!written.ok) expect(written.reason).toMatch(/symbolic link|hard links/);
      }
      swapper!.kill('SIGKILL');
      expect(await filesUnder(outside)).toEqual({ [join(outside, 'secret.txt')]: 'outside' });
    }
  });

  it(`never reads or finds the outside file in ${ATTEMPTS} reads and searches of a directory, and ${ATTEMPTS} reads of a file, swapped with links out`, {
    timeout: 240_000,
  }, async () => {
    await swapping('a', outside, 'directory');
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const read =
        attempt % 2 === 0
          ? await readWorktreeFile(worktree, 'a/secret.txt')
          : await searchWorktree(worktree, 'outside', 'a');
      if (read.ok) expect(read.text).not.toContain('outside:');
      if (read.ok) expect(read.text === 'outside').toBe(false);
    }
    swapper!.kill('SIGKILL');
    await swapping('leaf.txt', join(outside, 'secret.txt'), 'file');
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const read = await readWorktreeFile(worktree, 'leaf.txt');
      if (read.ok) expect(read.text).not.toContain('outside');
      else expect(read.reason).toMatch(/symbolic link|does not exist|replaced while it was opened/);
    }
    expect(existsSync(join(outside, 'secret.txt'))).toBe(true);
  });
});
