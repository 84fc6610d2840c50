import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runHostGit } from '../git/host-git.ts';
import { runProcess } from '../terminal/run-process.ts';
import { spawnCounts } from './spawn-counts.ts';
import {
  type SpawnPath,
  type SpawnRequest,
  setSpawnPath,
  spawnHelperPid,
  spawnHelperStarts,
  spawnProcess,
} from './spawn-process.ts';

const ENV = { PATH: '/usr/local/bin:/usr/bin:/bin' };

/** Runs `request` to its end: what it printed on each stream, and how it ended. */
function ran(request: Partial<SpawnRequest> & Pick<SpawnRequest, 'file' | 'args'>) {
  return new Promise<{
    stdout: string;
    stderr: string;
    code: number | null;
    signal: string | null;
    error: string | null;
  }>((resolve) => {
    const out = { stdout: '', stderr: '', error: null as string | null };
    const child = spawnProcess({ cwd: '/', env: ENV, ...request });
    child.on('stdout', (chunk) => (out.stdout += chunk.toString('utf8')));
    child.on('stderr', (chunk) => (out.stderr += chunk.toString('utf8')));
    child.on('error', (error) => (out.error = error.message));
    child.on('close', (code, signal) => resolve({ ...out, code, signal }));
  });
}

/** Whether `pid` still runs: a zombie (killed, not yet reaped by whoever adopted it) does not. */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

afterEach(() => setSpawnPath('helper'));

describe.each<SpawnPath>(['helper', 'direct'])('starting programs, spawn path %s', (path) => {
  it('gives the exit code, stdout and stderr apart, and stdin', async () => {
    setSpawnPath(path);
    const printed = await ran({ file: 'sh', args: ['-c', 'echo out; echo err >&2; exit 3'] });
    expect(printed).toMatchObject({ stdout: 'out\n', stderr: 'err\n', code: 3, error: null });
    const fed = await ran({ file: 'cat', args: [], stdin: Buffer.from('hello\0world') });
    expect(fed).toMatchObject({ stdout: 'hello\0world', code: 0 });
    // Without stdin, a reader of it sees its end at once.
    expect(await ran({ file: 'cat', args: [] })).toMatchObject({ stdout: '', code: 0 });
  });

  it('passes on at most keepBytes of each stream, reading the rest so the program ends', async () => {
    setSpawnPath(path);
    const chatty = await ran({
      file: 'sh',
      args: ['-c', 'head -c 3000000 /dev/zero; head -c 5000 /dev/zero >&2; echo done >&2'],
      keepBytes: 1000,
    });
    expect(chatty).toMatchObject({ code: 0, error: null });
    expect([chatty.stdout.length, chatty.stderr.length]).toEqual([1000, 1000]);
    const capped = await runProcess({
      file: 'sh',
      args: ['-c', 'head -c 3000000 /dev/zero'],
      cwd: '/',
      env: ENV,
      timeoutMs: 10_000,
      outputLimitBytes: 100,
    });
    expect(capped).toMatchObject({ exitCode: 0, truncated: true });
    expect(capped.output.length).toBe(100);
  });

  it('says a program that does not exist could not be started, then closes', async () => {
    setSpawnPath(path);
    const missing = await ran({ file: 'forja-no-such-program', args: [] });
    expect(missing.error).toContain('ENOENT');
    expect(missing.stdout).toBe('');
  });

  it('kills the whole process group at the time limit (runProcess)', async () => {
    setSpawnPath(path);
    const started = Date.now();
    const result = await runProcess({
      file: 'sh',
      args: ['-c', 'sleep 30 & echo started; wait'],
      cwd: '/',
      env: ENV,
      timeoutMs: 300,
      outputLimitBytes: 1024,
    });
    expect(result).toMatchObject({ timedOut: true, signal: 'SIGKILL', output: 'started\n' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('kill() ends a program and what it started', async () => {
    setSpawnPath(path);
    const child = spawnProcess({
      file: 'sh',
      args: ['-c', 'sleep 30 & echo $!; wait'],
      cwd: '/',
      env: ENV,
    });
    const sleeper = new Promise<number>((resolve) =>
      child.on('stdout', (chunk) => resolve(Number(chunk.toString('utf8').trim()))),
    );
    const closed = new Promise<string | null>((resolve) =>
      child.on('close', (_code, signal) => resolve(signal)),
    );
    const pid = await sleeper;
    expect(alive(pid)).toBe(true);
    child.kill();
    expect(await closed).toBe('SIGKILL');
    await until(() => !alive(pid));
  });
});

describe('the spawn helper', () => {
  it('is restarted after it died; what it was running ends with an error and is killed', async () => {
    setSpawnPath('helper');
    const first = spawnHelperPid()!;
    const child = spawnProcess({
      file: 'sh',
      args: ['-c', 'echo $$; sleep 30'],
      cwd: '/',
      env: ENV,
    });
    const shell = new Promise<number>((resolve) =>
      child.on('stdout', (chunk) => resolve(Number(chunk.toString('utf8').trim()))),
    );
    const ended = new Promise<{ error: string; signal: string | null }>((resolve) => {
      let error = '';
      child.on('error', (cause) => (error = cause.message));
      child.on('close', (_code, signal) => resolve({ error, signal }));
    });
    const pid = await shell;
    process.kill(first, 'SIGKILL');
    expect(await ended).toEqual({
      error: 'the spawn helper process exited; the command was stopped',
      signal: 'SIGKILL',
    });
    await until(() => !alive(pid));
    expect(await ran({ file: 'sh', args: ['-c', 'echo again'] })).toMatchObject({
      stdout: 'again\n',
      code: 0,
    });
    expect(spawnHelperPid()).not.toBe(first);
  });

  it('starts host git, counted by name; the direct path does not use it', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'forja-spawn-git-'));
    try {
      const location = { gitDir: join(directory, '.git'), workTree: directory };
      setSpawnPath('helper');
      const before = { helper: spawnHelperStarts(), git: spawnCounts().git ?? 0 };
      await runHostGit(location, ['init', '--quiet']);
      expect((await runHostGit(location, ['rev-parse', '--git-dir'])).trim()).toBe(location.gitDir);
      expect(spawnHelperStarts() - before.helper).toBe(2);
      expect((spawnCounts().git ?? 0) - before.git).toBe(2);
      setSpawnPath('direct');
      await runHostGit(location, ['rev-parse', '--git-dir']);
      expect(spawnHelperStarts() - before.helper).toBe(2);
      expect((spawnCounts().git ?? 0) - before.git).toBe(3);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
