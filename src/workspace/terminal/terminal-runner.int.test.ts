import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createTerminalRunner,
  type TerminalOutcome,
  type TerminalRunner,
} from './terminal-runner.ts';
import { DEFAULT_TERMINAL_SETTINGS } from './terminal-settings.ts';

const ran = (outcome: TerminalOutcome) => {
  if (!outcome.ok) throw new Error(`expected the command to run: ${outcome.reason}`);
  return outcome;
};

/**
 * The command's run in the sandbox; where bubblewrap cannot make one on this machine, asserts the refusal
 * instead and returns null, so no sandbox test passes without checking something.
 */
async function inSandbox(runner: TerminalRunner, worktree: string, command: string) {
  const outcome = await runner.run(worktree, command);
  if ((await runner.probe()).available) return ran(outcome);
  expect(outcome).toEqual({
    ok: false,
    reason: expect.stringContaining('terminal refused: the sandbox could not be made'),
  });
  return null;
}

describe('the terminal sandbox', () => {
  const runner = createTerminalRunner({ ...DEFAULT_TERMINAL_SETTINGS, timeoutMs: 20_000 });
  let root: string;
  let worktree: string;
  let outside: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'forja-sandbox-'));
    worktree = join(root, 'worktree');
    outside = join(root, 'outside');
    await mkdir(worktree);
    await mkdir(outside);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  let server: Server;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      connections += 1;
      socket.end('hello from the host\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('finds the versions of node, npm and python3 a command meets, once, and says git has no repository there', async () => {
    const tools = runner.tools();
    expect(runner.tools()).toBe(tools);
    const found = await tools;
    if (!(await runner.probe()).available) {
      expect(found.unknown).toContain('the sandbox could not be made');
      return;
    }
    const node = await inSandbox(runner, worktree, 'node --version');
    expect(found).toEqual({
      versions: expect.objectContaining({ node: node!.output.trim() }),
      unknown: null,
    });
    // What the agents are told: the worktree's git directory is not in the sandbox.
    await writeFile(join(worktree, '.git'), `gitdir: ${join(outside, 'worktrees', 'm')}\n`);
    const git = await inSandbox(runner, worktree, 'git rev-parse --show-toplevel');
    expect(git!.output).toContain('fatal: not a git repository');
  });

  it('runs in the worktree, which it may write', async () => {
    const outcome = await inSandbox(runner, worktree, 'pwd && echo made > inside.txt && echo done');
    if (outcome === null) return;
    expect(outcome).toMatchObject({ sandboxed: true, exitCode: 0, timedOut: false });
    expect(outcome.output).toBe(`${worktree}\ndone\n`);
    expect(await readFile(join(worktree, 'inside.txt'), 'utf8')).toBe('made\n');
  });

  it('cannot write outside the worktree: not a sibling directory, not the host /tmp, not the system', async () => {
    const marker = `forja-sandbox-marker-${process.pid}-${Date.now()}`;
    const outcome = await inSandbox(
      runner,
      worktree,
      `echo x > ${outside}/escaped.txt; echo x > /tmp/${marker}; echo x > /usr/${marker}; echo x > ${root}/escaped.txt; true`,
    );
    expect(outcome?.exitCode ?? 0).toBe(0);
    expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);
    expect(existsSync(join(root, 'escaped.txt'))).toBe(false);
    expect(existsSync(join('/tmp', marker))).toBe(false);
    expect(existsSync(join('/usr', marker))).toBe(false);
  });

  it('cannot reach the network, not even the host on 127.0.0.1', async () => {
    const port = (server.address() as { port: number }).port;
    const before = connections;
    const outcome = await inSandbox(
      runner,
      worktree,
      `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3 && echo connected' 2>&1; cat /proc/net/dev`,
    );
    expect(connections).toBe(before);
    if (outcome === null) return;
    expect(outcome.output).not.toContain('connected');
    expect(outcome.output).not.toContain('hello from the host');
    expect(outcome.output).not.toMatch(/eth\d|ens\d|enp\d|wlan\d/);
  });

  it('sees a scrubbed environment and no secret files of the host', async () => {
    process.env.FORJA_TEST_SECRET = 'must-not-leak';
    try {
      const outcome = await inSandbox(runner, worktree, 'env; cat /etc/shadow 2>&1; true');
      if (outcome === null) return;
      expect(outcome.output).not.toContain('must-not-leak');
      expect(outcome.output).not.toContain('DATABASE_URL');
      expect(outcome.output).toContain('PATH=/usr/local/bin:/usr/bin:/bin');
      expect(outcome.output).toMatch(/\/etc\/shadow: No such file or directory/);
    } finally {
      delete process.env.FORJA_TEST_SECRET;
    }
  });

  it('stops a command at the time limit and caps its output', async () => {
    const strict = createTerminalRunner({
      ...DEFAULT_TERMINAL_SETTINGS,
      timeoutMs: 1000,
      outputLimitBytes: 100,
    });
    const slow = await inSandbox(strict, worktree, 'sleep 30');
    if (slow === null) return;
    expect(slow).toMatchObject({ timedOut: true, exitCode: null });
    const loud = ran(await strict.run(worktree, 'head -c 10000 /dev/zero | tr "\\0" a'));
    expect(loud).toMatchObject({ truncated: true, exitCode: 0 });
    expect(loud.output).toBe('a'.repeat(100));
  });
});

describe('the terminal where the sandbox cannot be made', () => {
  let worktree: string;
  beforeEach(async () => (worktree = await mkdtemp(join(tmpdir(), 'forja-nosandbox-'))));
  afterEach(() => rm(worktree, { recursive: true, force: true }));

  it('refuses every command with the reason, running nothing', async () => {
    const runner = createTerminalRunner(DEFAULT_TERMINAL_SETTINGS, {
      bubblewrapPath: '/nonexistent/bwrap',
    });
    expect(await runner.probe()).toEqual({
      available: false,
      reason: expect.stringContaining('/nonexistent/bwrap cannot be started'),
    });
    expect(await runner.run(worktree, 'touch ran.txt')).toEqual({
      ok: false,
      reason: expect.stringMatching(
        /^terminal refused: the sandbox could not be made .*FORJA_TERMINAL_ALLOW_UNSANDBOXED is not true\)\. Nothing was run\.$/,
      ),
    });
    expect(existsSync(join(worktree, 'ran.txt'))).toBe(false);
  });

  it('runs without it only when explicitly allowed, and says so', async () => {
    const runner = createTerminalRunner(
      { ...DEFAULT_TERMINAL_SETTINGS, allowUnsandboxed: true },
      { bubblewrapPath: '/nonexistent/bwrap' },
    );
    expect(ran(await runner.run(worktree, 'touch ran.txt && pwd'))).toMatchObject({
      sandboxed: false,
      exitCode: 0,
      output: `${worktree}\n`,
    });
    expect(existsSync(join(worktree, 'ran.txt'))).toBe(true);
  });
});
