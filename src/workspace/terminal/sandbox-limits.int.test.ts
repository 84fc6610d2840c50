import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { limitNotes } from '../../domain/terminal/index.ts';
import { findCgroupParents } from './sandbox-cgroups.ts';
import { createTerminalRunner, type TerminalRunner } from './terminal-runner.ts';
import { DEFAULT_TERMINAL_SETTINGS } from './terminal-settings.ts';
import {
  FORK_BOMB,
  MEMORY_CROWD,
  MEMORY_HOG,
  SMALL_LIMITS,
  TMP_FILL,
} from './test-support/small-limits.ts';

const MIB = 1024 * 1024;

/** The command's run; where bubblewrap cannot make a sandbox here, asserts the refusal and returns null. */
async function inSandbox(runner: TerminalRunner, worktree: string, command: string) {
  const outcome = await runner.run(worktree, command);
  if (!(await runner.probe()).available) {
    expect(outcome).toMatchObject({ ok: false });
    return null;
  }
  if (!outcome.ok) throw new Error(`expected the command to run: ${outcome.reason}`);
  return outcome;
}

describe('the sandbox limits', () => {
  const runner = createTerminalRunner({
    ...DEFAULT_TERMINAL_SETTINGS,
    timeoutMs: 20_000,
    limits: SMALL_LIMITS,
  });
  // The fork bomb never ends by itself: this runner's time limit ends it, with every process it made.
  const shortRunner = createTerminalRunner({
    ...DEFAULT_TERMINAL_SETTINGS,
    timeoutMs: 4_000,
    limits: SMALL_LIMITS,
  });
  let worktree: string;
  beforeEach(async () => {
    worktree = join(await mkdtemp(join(tmpdir(), 'forja-limits-')), 'worktree');
    await mkdir(worktree);
  });
  afterEach(() => rm(join(worktree, '..'), { recursive: true, force: true }));

  it('applies every limit, as a harmless command sees them', async () => {
    const outcome = await inSandbox(runner, worktree, 'ulimit -a; df -k /tmp | tail -n 1');
    if (outcome === null) return;
    expect(outcome.output).toMatch(/^process\s+64$/m);
    expect(outcome.output).toMatch(/^data\(kbytes\)\s+262144$/m);
    expect(outcome.output).toMatch(/^file\(blocks\)\s+16384$/m);
    expect(outcome.output).toMatch(/^time\(seconds\)\s+2$/m);
    expect(outcome.output).toMatch(/^tmpfs\s+16384\s/m);
  });

  it('holds a fork bomb to the process limit, and the host keeps answering while it runs', async () => {
    const bomb = inSandbox(shortRunner, worktree, FORK_BOMB);
    const host = await promisify(execFile)('/bin/echo', ['the host answers']);
    expect(host.stdout).toBe('the host answers\n');
    const outcome = await bomb;
    if (outcome === null) return;
    const counted = Number(/processes: (\d+)/.exec(outcome.output)?.[1]);
    expect(counted).toBeGreaterThan(8);
    expect(counted).toBeLessThanOrEqual(SMALL_LIMITS.processes);
    expect(outcome.timedOut).toBe(true);
    expect(limitNotes(outcome, SMALL_LIMITS)).toContain(
      'the process limit (64 processes and threads) was reached',
    );
  });

  it('refuses memory past the limit with a clear error', async () => {
    const outcome = await inSandbox(runner, worktree, MEMORY_HOG);
    if (outcome === null) return;
    expect(outcome.exitCode).not.toBe(0);
    expect(outcome.output).not.toContain('400000000');
    expect(limitNotes(outcome, SMALL_LIMITS)).toContain(
      'the memory limit (256 MiB per process) was reached',
    );
  });

  it('bounds the memory of the whole command where a memory cgroup can be made', async () => {
    const outcome = await inSandbox(runner, worktree, MEMORY_CROWD);
    if (outcome === null) return;
    if (!(await findCgroupParents(['memory'])).length) return;
    expect(outcome.oomKills).toBeGreaterThan(0);
    expect(outcome.output).not.toContain('Cannot allocate memory');
    expect(outcome.output.match(/held/g)?.length ?? 0).toBeLessThan(3);
    expect(limitNotes(outcome, SMALL_LIMITS)).toContainEqual(
      expect.stringContaining(
        'the memory limit of the whole command (192 MiB, /tmp included) was reached',
      ),
    );
  });

  it('bounds /tmp: filling it stops at its size, with no space left', async () => {
    const outcome = await inSandbox(runner, worktree, TMP_FILL);
    if (outcome === null) return;
    expect(outcome.output).toContain('No space left on device');
    expect(Number(/tmp bytes: (\d+)/.exec(outcome.output)?.[1])).toBeLessThanOrEqual(16 * MIB);
    expect(limitNotes(outcome, SMALL_LIMITS)).toContain(
      'a disk limit was reached (/tmp holds 16 MiB)',
    );
  });

  it('caps the size of a file, a sparse one included, in the worktree', async () => {
    const outcome = await inSandbox(
      runner,
      worktree,
      'truncate -s 8G sparse; head -c 12M /dev/zero > big',
    );
    if (outcome === null) return;
    expect((await stat(join(worktree, 'sparse'))).size).toBe(0);
    expect((await stat(join(worktree, 'big'))).size).toBe(8 * MIB);
    expect(outcome.exitCode).toBe(153);
    expect(limitNotes(outcome, SMALL_LIMITS)).toContain('the file size limit (8 MiB) was reached');
  });

  it('stops a process at its CPU time limit', async () => {
    const outcome = await inSandbox(runner, worktree, 'while :; do :; done');
    if (outcome === null) return;
    expect(outcome.timedOut).toBe(false);
    expect(limitNotes(outcome, SMALL_LIMITS)).toContain(
      'the CPU time limit (2 s per process) was reached',
    );
  });

  it('kills the command and every process it started when its signal is aborted', async () => {
    const stop = new AbortController();
    const running = runner.run(worktree, '(sleep 600 &); sleep 600', { signal: stop.signal });
    setTimeout(() => stop.abort(), 300);
    const outcome = await running;
    if (!(await runner.probe()).available) return;
    expect(outcome).toMatchObject({ ok: true, stopped: true, timedOut: false, exitCode: null });
  });
});
