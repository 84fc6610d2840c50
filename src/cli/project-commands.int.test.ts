import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workspaceDirectory } from '../workspace/index.ts';
import { runCli } from './main.ts';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@t', ...args], {
    cwd,
    env: {
      PATH: '/usr/bin:/bin',
      HOME: '/nonexistent',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
    },
    encoding: 'utf8',
  });

describe('forja project import', { timeout: 120_000 }, () => {
  const scratch = mkdtempSync(join(tmpdir(), 'forja-project-import-'));
  const data = join(scratch, 'data');
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  async function forja(argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, {
      stdout: (text) => void (stdout += text),
      stderr: (text) => void (stderr += text),
      env: { FORJA_DATA_DIR: data, LOG_LEVEL: 'silent' },
    });
    return { code, stdout, stderr };
  }
  const projects = () =>
    existsSync(join(data, 'projects')) ? readdirSync(join(data, 'projects')) : [];

  it('imports a directory with its history under the repository name, and refuses what is not a repository or an unknown ref', async () => {
    const source = join(scratch, 'bakery');
    mkdirSync(source);
    git(source, 'init', '--quiet', '--initial-branch=main');
    writeFileSync(join(source, 'AGENTS.md'), '# Bakery\n');
    git(source, 'add', '.');
    git(source, 'commit', '--quiet', '-m', 'the bakery');

    const plain = join(scratch, 'plain');
    mkdirSync(plain);
    const notRepository = await forja(['project', 'import', plain]);
    expect(notRepository.code).toBe(2);
    expect(notRepository.stderr).toContain('is not a git repository');
    const unknownRef = await forja(['project', 'import', source, '--ref', 'nope']);
    expect(unknownRef).toMatchObject({ code: 2, stderr: expect.stringContaining('--ref') });
    expect(projects()).toEqual([]);

    const imported = await forja(['project', 'import', source]);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    const id = /^Imported bakery \(([0-9a-f-]{36})\)\.\n$/.exec(imported.stdout)?.[1];
    expect(id).toBeDefined();
    const workspace = workspaceDirectory(data, id!);
    expect(readFileSync(join(workspace, 'AGENTS.md'), 'utf8')).toBe('# Bakery\n');
    expect(git(workspace, 'log', '--format=%s', 'dev')).toBe('the bakery\n');
    expect(projects()).toEqual([id]);
  });
});
