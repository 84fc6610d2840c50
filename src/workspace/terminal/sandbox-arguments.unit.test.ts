import { describe, expect, it } from 'vitest';
import { sandboxArguments, scrubbedEnvironment } from './sandbox-arguments.ts';
import { readTerminalSettings } from './terminal-settings.ts';

describe('sandboxArguments', () => {
  const args = sandboxArguments('/data/projects/p/worktrees/pedidos', 'npm test', [
    { path: '/usr', kind: 'directory' },
    { path: '/bin', kind: 'symlink', target: 'usr/bin' },
  ]);
  const pairsAfter = (flag: string) => args.flatMap((value, index) => (value === flag ? [[args[index + 1], args[index + 2]]] : []));

  it('takes the network away and dies with Forja', () => {
    expect(args).toEqual(expect.arrayContaining(['--unshare-net', '--unshare-pid', '--die-with-parent', '--new-session', '--clearenv']));
  });

  it('makes the worktree the only writable bind, at the same path, and the working directory', () => {
    expect(pairsAfter('--bind')).toEqual([['/data/projects/p/worktrees/pedidos', '/data/projects/p/worktrees/pedidos']]);
    expect(args[args.indexOf('--chdir') + 1]).toBe('/data/projects/p/worktrees/pedidos');
    expect(pairsAfter('--ro-bind')).toEqual([['/usr', '/usr']]);
    expect(pairsAfter('--symlink')).toEqual([['usr/bin', '/bin']]);
  });

  it('shows only a few files of /etc, never all of it', () => {
    expect(pairsAfter('--ro-bind-try').map(([path]) => path)).not.toContain('/etc');
    expect(pairsAfter('--ro-bind-try').map(([path]) => path)).not.toContain('/etc/shadow');
  });

  it('runs the command with sh -c last, after --, and an environment with nothing of Forja', () => {
    expect(args.slice(-4)).toEqual(['--', '/bin/sh', '-c', 'npm test']);
    expect(Object.keys(scrubbedEnvironment('/tmp')).sort()).toEqual(['HOME', 'LANG', 'PATH', 'TERM', 'TMPDIR']);
  });
});

describe('readTerminalSettings', () => {
  it('defaults to the safe choices', () => {
    expect(readTerminalSettings({})).toEqual({ ok: true, settings: { mode: 'proposed', allowUnsandboxed: false, timeoutMs: 120_000, outputLimitBytes: 65_536 } });
  });

  it('reads direct mode, unsandboxed permission and the time limit', () => {
    expect(readTerminalSettings({ FORJA_TERMINAL_MODE: 'direct', FORJA_TERMINAL_ALLOW_UNSANDBOXED: 'true', FORJA_TERMINAL_TIMEOUT_SECONDS: '30' })).toMatchObject({ ok: true, settings: { mode: 'direct', allowUnsandboxed: true, timeoutMs: 30_000 } });
  });

  it.each([
    ['FORJA_TERMINAL_MODE', 'always'],
    ['FORJA_TERMINAL_ALLOW_UNSANDBOXED', 'maybe'],
    ['FORJA_TERMINAL_TIMEOUT_SECONDS', '0'],
  ])('names %s when its value is wrong', (variable, value) => {
    expect(readTerminalSettings({ [variable]: value })).toMatchObject({ ok: false, variable });
  });
});
