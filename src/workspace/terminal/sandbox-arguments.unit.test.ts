import { describe, expect, it } from 'vitest';
import { sandboxArguments, scrubbedEnvironment } from './sandbox-arguments.ts';
import { DEFAULT_SANDBOX_LIMITS } from '../../domain/terminal/index.ts';
import { readTerminalSettings } from './terminal-settings.ts';

describe('sandboxArguments', () => {
  const args = sandboxArguments(
    '/data/projects/p/worktrees/pedidos',
    'npm test',
    [
      { path: '/usr', kind: 'directory' },
      { path: '/bin', kind: 'symlink', target: 'usr/bin' },
    ],
    { ...DEFAULT_SANDBOX_LIMITS, processes: 64, tmpBytes: 16 * 1024 * 1024 },
  );
  const pairsAfter = (flag: string) =>
    args.flatMap((value, index) => (value === flag ? [[args[index + 1], args[index + 2]]] : []));

  it('takes the network away and dies with Forja', () => {
    expect(args).toEqual(
      expect.arrayContaining(['--unshare-all', '--die-with-parent', '--new-session', '--clearenv']),
    );
    expect(args).not.toContain('--share-net');
  });

  it('runs as uid and gid 65534 in a user namespace of its own, with no capability and no further namespace', () => {
    expect(args).toEqual(expect.arrayContaining(['--unshare-user', '--disable-userns']));
    expect(args[args.indexOf('--uid') + 1]).toBe('65534');
    expect(args[args.indexOf('--gid') + 1]).toBe('65534');
    expect(args[args.indexOf('--cap-drop') + 1]).toBe('ALL');
    expect(args).not.toContain('--cap-add');
  });

  it('mounts a /proc of its own, read-only', () => {
    expect(args[args.indexOf('--proc') + 1]).toBe('/proc');
    expect(args[args.indexOf('--remount-ro') + 1]).toBe('/proc');
    expect(args.indexOf('--remount-ro')).toBeGreaterThan(args.indexOf('--proc'));
  });

  it("binds the worktree's .git read-only over itself, after the worktree", () => {
    const gitLink = '/data/projects/p/worktrees/pedidos/.git';
    expect(pairsAfter('--ro-bind-try')).toContainEqual([gitLink, gitLink]);
    expect(args.lastIndexOf(gitLink)).toBeGreaterThan(args.indexOf('--bind'));
  });

  it('makes the worktree the only writable bind, at the same path, and the working directory', () => {
    expect(pairsAfter('--bind')).toEqual([
      ['/data/projects/p/worktrees/pedidos', '/data/projects/p/worktrees/pedidos'],
    ]);
    expect(args[args.indexOf('--chdir') + 1]).toBe('/data/projects/p/worktrees/pedidos');
    expect(pairsAfter('--ro-bind')).toEqual([['/usr', '/usr']]);
    expect(pairsAfter('--symlink')).toEqual([['usr/bin', '/bin']]);
  });

  it('shows only a few files of /etc, never all of it', () => {
    expect(pairsAfter('--ro-bind-try').map(([path]) => path)).not.toContain('/etc');
    expect(
      pairsAfter('--ro-bind-try')
        .map(([path]) => path)
        .filter((path) => path!.startsWith('/etc')).length,
    ).toBeGreaterThan(0);
    expect(pairsAfter('--ro-bind-try').map(([path]) => path)).not.toContain('/etc/shadow');
  });

  it("gives the sandbox a /tmp of the limit's size: --size just before --tmpfs /tmp", () => {
    const tmpfs = args.indexOf('--tmpfs');
    expect(args.slice(tmpfs - 2, tmpfs + 2)).toEqual(['--size', '16777216', '--tmpfs', '/tmp']);
  });

  it('runs the command with sh -c last, under prlimit with every limit, after --, and an environment with nothing of Forja', () => {
    expect(args.slice(-4)).toEqual(['--', '/bin/sh', '-c', 'npm test']);
    const limits = args.slice(args.indexOf('prlimit'), -3);
    expect(args[args.indexOf('prlimit') - 1]).toBe('--');
    expect(limits).toEqual([
      'prlimit',
      '--nproc=64',
      '--data=1073741824',
      '--cpu=600:605',
      '--fsize=536870912',
      '--core=0',
      '--',
    ]);
    expect(Object.keys(scrubbedEnvironment('/tmp')).sort()).toEqual([
      'HOME',
      'LANG',
      'PATH',
      'TERM',
      'TMPDIR',
    ]);
  });
});

describe('readTerminalSettings', () => {
  it('defaults to the safe choices: auto approvals (risky commands wait), never unsandboxed', () => {
    expect(readTerminalSettings({})).toEqual({
      ok: true,
      settings: {
        mode: 'auto',
        allowUnsandboxed: false,
        timeoutMs: 120_000,
        outputLimitBytes: 65_536,
        limits: DEFAULT_SANDBOX_LIMITS,
      },
    });
  });

  it.each(['auto', 'proposed', 'direct'] as const)('reads %s mode', (mode) => {
    expect(readTerminalSettings({ FORJA_TERMINAL_MODE: ` ${mode.toUpperCase()} ` })).toMatchObject({
      ok: true,
      settings: { mode },
    });
  });

  it('reads direct mode, unsandboxed permission and the time limit', () => {
    expect(
      readTerminalSettings({
        FORJA_TERMINAL_MODE: 'direct',
        FORJA_TERMINAL_ALLOW_UNSANDBOXED: 'true',
        FORJA_TERMINAL_TIMEOUT_SECONDS: '30',
      }),
    ).toMatchObject({
      ok: true,
      settings: { mode: 'direct', allowUnsandboxed: true, timeoutMs: 30_000 },
    });
  });

  it.each([
    ['FORJA_TERMINAL_MODE', 'always'],
    ['FORJA_TERMINAL_ALLOW_UNSANDBOXED', 'maybe'],
    ['FORJA_TERMINAL_TIMEOUT_SECONDS', '0'],
    ['FORJA_SANDBOX_MAX_PROCESSES', '8'],
    ['FORJA_SANDBOX_MEMORY_MB', '1.5'],
  ])('names %s when its value is wrong', (variable, value) => {
    expect(readTerminalSettings({ [variable]: value })).toMatchObject({ ok: false, variable });
  });
});
