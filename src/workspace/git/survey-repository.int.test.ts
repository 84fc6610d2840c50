import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositorySurveys, surveyRepository } from './survey-repository.ts';

const run = promisify(execFile);
const git = (cwd: string, ...args: string[]) =>
  run('git', ['-c', 'user.name=T', '-c', 'user.email=t@t', ...args], {
    cwd,
    env: {
      PATH: '/usr/bin:/bin',
      HOME: '/nonexistent',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    },
  });

describe("the survey of a project's main", () => {
  let scratch: string;
  let workspace: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'forja-survey-'));
    workspace = join(scratch, 'workspace');
    await mkdir(join(workspace, 'pkg'), { recursive: true });
    await git(workspace, 'init', '--quiet', '--initial-branch=main');
    // A README that is a link to a host file, a manifest larger than its budget, an AGENTS.md.
    await symlink('/etc/passwd', join(workspace, 'README.md'));
    await writeFile(
      join(workspace, 'package.json'),
      `{"name":"big",\n${'"x": 1,\n'.repeat(2000)}}\n`,
    );
    await writeFile(join(workspace, 'pkg', 'AGENTS.md'), 'Regras do pacote.\n');
    await git(workspace, 'add', '.');
    await git(workspace, 'commit', '--quiet', '-m', 'x');
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it("reads git's objects only: a link is a path, never followed; each document is cut at its budget", async () => {
    const survey = (await surveyRepository(workspace, {
      maxPaths: 2,
      maxDocuments: 5,
      maxDocumentBytes: 100,
    }))!;
    expect(survey.paths).toHaveLength(2);
    expect(survey.totalPaths).toBe(3);
    expect(survey.documents.map((document) => document.path)).toEqual(['package.json']);
    expect(JSON.stringify(survey)).not.toContain('root:');
    const manifest = survey.documents[0]!;
    expect(manifest.truncated).toBe(true);
    expect(manifest.text.length).toBeLessThanOrEqual(100);
  });

  it('is nothing for a repository without main', async () => {
    const empty = join(scratch, 'empty');
    await mkdir(empty);
    await git(empty, 'init', '--quiet', '--initial-branch=main');
    expect(await surveyRepository(empty)).toBeNull();
  });

  it('is made again only when main moves', async () => {
    const moving = join(scratch, 'moving');
    await mkdir(moving);
    await git(moving, 'init', '--quiet', '--initial-branch=main');
    await writeFile(join(moving, 'README.md'), 'first\n');
    await git(moving, 'add', '.');
    await git(moving, 'commit', '--quiet', '-m', 'one');
    const surveys = createRepositorySurveys();
    const first = await surveys(moving);
    expect(await surveys(moving)).toBe(first);
    await writeFile(join(moving, 'README.md'), 'second\n');
    await git(moving, 'commit', '--quiet', '-am', 'two');
    const second = await surveys(moving);
    expect(second).not.toBe(first);
    expect(second!.documents[0]!.text).toBe('second\n');
  });
});
