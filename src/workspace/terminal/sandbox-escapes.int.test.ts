import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readHostRoots } from './host-roots.ts';
import { runProcess } from './run-process.ts';
import { sandboxArguments, scrubbedEnvironment } from './sandbox-arguments.ts';
import { DEFAULT_SANDBOX_LIMITS } from '../../domain/terminal/index.ts';
import { createTerminalRunner, DEFAULT_BUBBLEWRAP_PATH } from './terminal-runner.ts';
import { DEFAULT_TERMINAL_SETTINGS } from './terminal-settings.ts';

/** What one attempt inside the sandbox printed, or null where this machine cannot make a sandbox (asserted). */
type Run = (worktree: string, command: string) => Promise<string | null>;

const runner = createTerminalRunner({ ...DEFAULT_TERMINAL_SETTINGS, timeoutMs: 20_000 });
const asForja: Run = async (worktree, command) => {
  const outcome = await runner.run(worktree, command);
  if (!(await runner.probe()).available) {
    expect(outcome).toEqual({
      ok: false,
      reason: expect.stringContaining('terminal refused: the sandbox could not be made'),
    });
    return null;
  }
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.output;
};

/**
 * The same sandbox started by an unprivileged user (uid 65534 through `setpriv`), as Forja run by a plain
 * user would start it. Where the kernel lets no plain user make a user namespace, bubblewrap's refusal is
 * asserted instead.
 */
const asNobody: Run = async (worktree, command) => {
  const result = await runProcess({
    file: '/usr/bin/setpriv',
    args: [
      '--reuid=65534',
      '--regid=65534',
      '--clear-groups',
      '--',
      DEFAULT_BUBBLEWRAP_PATH,
      ...sandboxArguments(worktree, command, await readHostRoots(), DEFAULT_SANDBOX_LIMITS),
    ],
    cwd: '/',
    env: scrubbedEnvironment('/tmp'),
    timeoutMs: 20_000,
    outputLimitBytes: 64 * 1024,
  });
  if (result.startError !== null) throw new Error(result.startError);
  if (
    result.exitCode !== 0 &&
    /bwrap: (No permissions to create new namespace|Creating new namespace failed|setting up uid map)/.test(
      result.output,
    )
  )
    return null;
  return result.output;
};

// Run by root (CI runs as root), the sandbox is tried both ways; run by a plain user, Forja is that user.
const WHO: Array<[string, Run]> =
  process.getuid?.() === 0
    ? [
        ['Forja run by root', asForja],
        ['Forja run by uid 65534', asNobody],
      ]
    : [['Forja run by this user', asForja]];

describe.each(WHO)('the sandbox holds against a hostile command: %s', (_who, run) => {
  let root: string;
  let worktree: string;
  let gitDir: string;
  const marker = () => join(root, 'marker');
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'forja-escapes-'));
    worktree = join(root, 'worktree');
    gitDir = join(root, 'repository', '.git', 'worktrees', 'worktree');
    await mkdir(worktree);
    await mkdir(gitDir, { recursive: true });
    await writeFile(join(worktree, '.git'), `gitdir: ${gitDir}\n`);
    // Reachable and writable by uid 65534, so only the sandbox's own rules stop it.
    await chmod(root, 0o755);
    await chmod(worktree, 0o777);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('has no capability, even as root inside, and cannot make a user namespace to get one', async () => {
    const output = await run(
      worktree,
      'id -u; grep -E "^Cap(Eff|Prm|Bnd|Amb)" /proc/self/status; grep NoNewPrivs /proc/self/status; unshare -U true 2>&1 || echo no-userns; unshare -m true 2>&1 || echo no-mountns',
    );
    if (output === null) return;
    expect(output).toMatch(/^65534\n/);
    for (const set of ['CapEff', 'CapPrm', 'CapBnd', 'CapAmb'])
      expect(output).toContain(`${set}:\t0000000000000000`);
    expect(output).toContain('NoNewPrivs:\t1');
    expect(output).toContain('no-userns');
    expect(output).toContain('no-mountns');
  });

  it('cannot remount /usr or write under it, nor any read-only bind', async () => {
    const name = `forja-escape-${process.pid}-${Date.now()}`;
    const output = await run(
      worktree,
      `mount -o remount,rw,bind /usr 2>&1 && echo remounted; mount -o remount,rw /bin 2>&1 && echo remounted; touch /usr/${name} 2>&1 || echo usr-refused; echo x >> /etc/passwd 2>&1 || echo etc-refused; cp /bin/sh /usr/bin/git 2>&1 || echo git-refused; true`,
    );
    if (output === null) return;
    expect(output).not.toContain('remounted');
    expect(output).toContain('usr-refused');
    expect(output).toContain('etc-refused');
    expect(output).toContain('git-refused');
    expect(existsSync(`/usr/${name}`)).toBe(false);
    expect(await readFile('/etc/passwd', 'utf8')).not.toMatch(/\nx\n?$/);
  });

  it("sees only its own processes in /proc, with nothing of Forja's environment, and cannot write a kernel setting", async () => {
    process.env.FORJA_ESCAPE_SECRET = 'sk-must-not-leak';
    try {
      const output = await run(
        worktree,
        'cat /proc/1/environ | tr "\\0" "\\n"; echo; for p in /proc/[0-9]*; do echo "process: $(cat $p/comm)"; done; echo 1 > /proc/sys/vm/drop_caches 2>&1 || echo sysctl-refused; echo x > /proc/sysrq-trigger 2>&1 || echo sysrq-refused; ls /proc/*/root/ 2>/dev/null | head -1; true',
      );
      if (output === null) return;
      expect(output).not.toContain('sk-must-not-leak');
      expect(output).not.toContain('DATABASE_URL');
      // Its own processes only: bubblewrap's init, the shell and the loop's children — never Forja's node.
      expect(
        output.match(/^process: .*$/gm)!.filter((line) => !/^process: (bwrap|sh|cat)$/.test(line)),
      ).toEqual([]);
      expect(output).toContain('sysctl-refused');
      expect(output).toContain('sysrq-refused');
    } finally {
      delete process.env.FORJA_ESCAPE_SECRET;
    }
  });

  it("cannot rewrite, replace or remove the worktree's .git, and cannot reach the repository's git directory", async () => {
    const output = await run(
      worktree,
      `echo "gitdir: ${worktree}/evil" > .git 2>&1 || echo write-refused; rm -f .git 2>&1 || echo rm-refused; mv .git moved 2>&1 || echo mv-refused; ln -sf evil .git 2>&1 || echo ln-refused; ls ${gitDir} 2>&1 || echo gitdir-unreachable; touch ${gitDir}/config 2>&1 || echo gitdir-refused; true`,
    );
    if (output === null) return;
    for (const refused of [
      'write-refused',
      'rm-refused',
      'mv-refused',
      'ln-refused',
      'gitdir-unreachable',
      'gitdir-refused',
    ])
      expect(output).toContain(refused);
    expect(await readFile(join(worktree, '.git'), 'utf8')).toBe(`gitdir: ${gitDir}\n`);
    expect(existsSync(join(gitDir, 'config'))).toBe(false);
  });

  it('leaves no set-uid or set-gid program of a privileged user behind, and can make no device', async () => {
    const output = await run(
      worktree,
      'cp /bin/sh ./sh && chmod 6755 ./sh && ls -l ./sh; mknod ./disk b 8 0 2>&1 || echo mknod-refused; true',
    );
    if (output === null) return;
    expect(output).toContain('mknod-refused');
    const program = await stat(join(worktree, 'sh'));
    // Run by root, the file is root's outside and Forja takes the bits off; run by uid 65534, it is that
    // user's own set-uid program, which gives nothing.
    expect({
      uid: program.uid,
      setId: (program.mode & 0o6000) !== 0 && program.uid !== 65534,
    }).toMatchObject({ setId: false });
  });

  it('cannot reach the network, create anything outside the worktree, or leave a process behind', async () => {
    const output = await run(
      worktree,
      `(sleep 3; touch ${worktree}/late) & echo x > ${marker()}; echo x > /tmp/forja-escape-marker; getent hosts example.com || echo no-dns; cat /proc/net/dev; true`,
    );
    if (output === null) return;
    // The path exists in the sandbox (bubblewrap makes the worktree's parents on its own tmpfs), not on the host.
    expect(output).toContain('no-dns');
    expect(output).not.toMatch(/eth\d|ens\d|enp\d|wlan\d/);
    expect(existsSync(marker())).toBe(false);
    expect(existsSync('/tmp/forja-escape-marker')).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(existsSync(join(worktree, 'late'))).toBe(false);
  });
});
