import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostGitArguments, runBoundedHostGit, runHostGit, type GitLocation } from './host-git.ts';

describe('host git', () => {
  let root: string;
  let location: GitLocation;
  const marker = () => join(root, 'program-ran');
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'forja-host-git-'));
    location = { gitDir: join(root, 'repo', '.git'), workTree: join(root, 'repo') };
    await mkdir(location.workTree!);
    await runHostGit(location, ['init', '--quiet']);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('always names the git directory and the work tree, after its pinned configuration', () => {
    const args = hostGitArguments({ gitDir: '/r/.git', workTree: '/r' }, ['status']);
    expect(args.slice(-3)).toEqual(['--git-dir=/r/.git', '--work-tree=/r', 'status']);
    for (const pinned of [
      'core.fsmonitor=false',
      'core.hooksPath=/dev/null',
      'core.attributesFile=/dev/null',
      'protocol.allow=never',
    ])
      expect(args).toContain(pinned);
  });

  it('reads no system or user configuration, whatever the machine has', async () => {
    const scopes = (await runHostGit(location, ['config', '--list', '--show-scope']))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.split('\t')[0]);
    expect(new Set(scopes)).toEqual(new Set(['command', 'local']));
  });

  it("gives nothing of Forja's environment to a program git runs", async () => {
    process.env.FORJA_HOST_GIT_SECRET = 'sk-must-not-leak';
    try {
      const seen = await runHostGit(location, ['-c', 'alias.seen=!env', 'seen']);
      expect(seen).not.toContain('sk-must-not-leak');
      expect(seen).not.toContain('DATABASE_URL');
      expect(seen).toContain('GIT_CONFIG_NOSYSTEM=1');
      expect(seen).toContain('HOME=/nonexistent');
    } finally {
      delete process.env.FORJA_HOST_GIT_SECRET;
    }
  });

  it("runs no fsmonitor and no hook even when the repository's own configuration sets them", async () => {
    await mkdir(join(root, 'hooks'));
    for (const hook of ['pre-commit', 'commit-msg', 'post-commit']) {
      await writeFile(join(root, 'hooks', hook), `#!/bin/sh\ntouch ${marker()}\n`);
      await chmod(join(root, 'hooks', hook), 0o755);
      await writeFile(join(location.gitDir, 'hooks', hook), `#!/bin/sh\ntouch ${marker()}\n`);
      await chmod(join(location.gitDir, 'hooks', hook), 0o755);
    }
    await writeFile(
      join(location.gitDir, 'config'),
      `[core]\n\tfsmonitor = touch ${marker()}\n\thooksPath = ${join(root, 'hooks')}\n`,
      { flag: 'a' },
    );
    await writeFile(join(location.workTree!, 'a.txt'), 'a\n');
    await runHostGit(location, ['add', '--all']);
    await runHostGit(location, ['commit', '--quiet', '-m', 'a']);
    await runHostGit(location, ['status', '--porcelain']);
    expect(existsSync(marker())).toBe(false);
  });

  it('kills a git that passes its time limit, with an error that says so', async () => {
    // Hashing a 1 GiB file (sparse: no disk) takes git far longer than the 0.2 s it is given here.
    const big = join(root, 'big');
    await writeFile(big, '');
    await truncate(big, 1024 * 1024 * 1024);
    const args = ['hash-object', '--no-filters', big];
    await expect(runHostGit(location, args, { timeoutMs: 200 })).rejects.toThrow(
      /git hash-object .* failed \(exit null\): stopped at the time limit of 0.2 s \(FORJA_GIT_TIMEOUT_SECONDS\)/,
    );
    await expect(runBoundedHostGit(location, args, 1024, 0x0a, { timeoutMs: 200 })).rejects.toThrow(
      /stopped at the time limit of 0.2 s/,
    );
  });
});
