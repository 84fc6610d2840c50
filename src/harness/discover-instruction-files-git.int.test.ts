import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverInstructionFiles } from './discover-instruction-files.ts';
import { walkWorkspace } from './walk-workspace.ts';

const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args],
    { cwd, encoding: 'utf8' },
  );

async function write(root: string, relative: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), content);
}

let sandbox: string;

beforeAll(async () => {
  sandbox = await mkdtemp(path.join(tmpdir(), 'forja-discover-git-'));
});

afterAll(async () => {
  await rm(sandbox, { recursive: true, force: true });
});

describe('discoverInstructionFiles in a git repository', () => {
  it("uses git's set: tracked files in ignored directories count, ignored untracked ones do not", async () => {
    const repo = path.join(sandbox, 'tracked');
    await write(repo, '.gitignore', 'vendor/\nbuild/\n');
    await write(repo, 'AGENTS.md', 'root');
    await write(repo, 'vendor/lib/AGENTS.md', 'tracked although ignored');
    await write(repo, 'sub/AGENTS.md', 'untracked, not ignored');
    git(repo, 'init', '-q');
    git(repo, 'add', '.gitignore', 'AGENTS.md');
    git(repo, 'add', '-f', 'vendor/lib/AGENTS.md');
    git(repo, 'commit', '-q', '-m', 'x');
    await write(repo, 'build/AGENTS.md', 'untracked and ignored');
    await write(repo, 'vendor/other/AGENTS.md', 'untracked and ignored');
    const result = await discoverInstructionFiles(repo);
    expect(result.method).toBe('git');
    expect(result.sources.map((source) => source.id)).toEqual([
      'AGENTS.md',
      'sub/AGENTS.md',
      'vendor/lib/AGENTS.md',
    ]);
  });

  it('prefers AGENTS.override.md to AGENTS.md, reads CLAUDE.md only where there is neither, and marks global files', async () => {
    const repo = path.join(sandbox, 'names');
    await write(repo, 'AGENTS.md', 'root');
    await write(repo, 'CLAUDE.md', 'root, for Claude');
    await write(repo, 'a/AGENTS.md', 'a');
    await write(repo, 'a/AGENTS.override.md', 'a, overridden');
    await write(repo, 'b/CLAUDE.md', 'b, Claude only');
    await write(repo, 'c/AGENTS.override.md', '   \n'); // blank: skipped, so AGENTS.md is read
    await write(repo, 'c/AGENTS.md', '\n<!-- forja:global -->\nc, for everyone');
    git(repo, 'init', '-q');
    const result = await discoverInstructionFiles(repo);
    expect(result.sources.map((source) => [source.id, source.global])).toEqual([
      ['AGENTS.md', true],
      ['a/AGENTS.override.md', false],
      ['b/CLAUDE.md', false],
      ['c/AGENTS.md', true],
    ]);
    expect(result.skipped.map((skip) => [skip.path, skip.reason, skip.detail ?? ''])).toEqual([
      ['CLAUDE.md', 'shadowed', 'AGENTS.md'],
      ['a/AGENTS.md', 'shadowed', 'a/AGENTS.override.md'],
      ['c/AGENTS.override.md', 'empty', ''],
    ]);
  });

  it('skips a FIFO, an empty file and a directory named AGENTS.md without hanging, and reads a duplicate once', async () => {
    const repo = path.join(sandbox, 'odd');
    await write(repo, 'AGENTS.md', 'root');
    await mkdir(path.join(repo, 'fifo'), { recursive: true });
    execFileSync('mkfifo', [path.join(repo, 'fifo/AGENTS.md')]); // not a file of the tree: not even listed
    await mkdir(path.join(repo, 'piped'), { recursive: true });
    execFileSync('mkfifo', [path.join(repo, 'piped/pipe')]);
    await symlink('pipe', path.join(repo, 'piped/AGENTS.md')); // listed, and opening it would block
    await write(repo, 'empty/AGENTS.md', '');
    await mkdir(path.join(repo, 'dir/AGENTS.md'), { recursive: true });
    await write(repo, 'dir/AGENTS.md/x', 'x');
    await mkdir(path.join(repo, 'docs'));
    await symlink('../AGENTS.md', path.join(repo, 'docs/AGENTS.md'));
    for (const method of ['walk', 'auto'] as const) {
      if (method === 'auto') git(repo, 'init', '-q');
      const result = await discoverInstructionFiles(repo, { method });
      expect(result.sources.map((source) => source.id)).toEqual(['AGENTS.md']);
      expect(result.skipped.map((skip) => [skip.path, skip.reason])).toEqual([
        ['docs/AGENTS.md', 'duplicate'],
        ['empty/AGENTS.md', 'empty'],
        ['piped/AGENTS.md', 'not_regular_file'],
      ]);
    }
  });
});

// Patterns that exercise nesting and negation, the directory-only slash, anchoring and globs.
const PATTERNS = [
  'build/',
  '!build/',
  'build',
  '*.md',
  '!AGENTS.md',
  'a/',
  '!a/',
  '/b',
  '!b',
  'x/**',
  '!x/',
  'AGENTS.md',
  '/AGENTS.md',
  '**/b/',
  'a/AGENTS.md',
  '!a/AGENTS.md',
  '*',
  '!*/',
  '!*.md',
  '# note',
  '',
];
const SEGMENTS = ['a', 'b', 'x', 'build'];

const trees = fc.record({
  directories: fc.uniqueArray(
    fc
      .array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 3 })
      .map((parts) => parts.join('/')),
    { maxLength: 10 },
  ),
  gitignores: fc.array(
    fc.tuple(fc.nat(10), fc.array(fc.constantFrom(...PATTERNS), { minLength: 1, maxLength: 4 })),
    { maxLength: 4 },
  ),
});

describe('the walker against git', () => {
  it('finds the same AGENTS.md files as git ls-files -co --exclude-standard on random trees with nested .gitignore files', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(trees, async ({ directories, gitignores }) => {
        const root = path.join(sandbox, `random-${run++}`);
        await mkdir(root);
        const all = ['', ...directories];
        for (const directory of all)
          await write(root, path.join(directory, 'AGENTS.md'), `rules of ${directory || 'root'}`);
        for (const [index, lines] of gitignores) {
          const directory = all[index % all.length] ?? '';
          await write(root, path.join(directory, '.gitignore'), `${lines.join('\n')}\n`);
        }
        git(root, 'init', '-q');
        const fromGit = git(root, 'ls-files', '-co', '--exclude-standard', '-z')
          .split('\0')
          .filter((file) => file === 'AGENTS.md' || file.endsWith('/AGENTS.md'))
          .sort();
        const walked = (await walkWorkspace(root, ['AGENTS.md'])).found.sort();
        expect(walked).toEqual(fromGit);
        const viaGit = (await discoverInstructionFiles(root)).sources
          .map((source) => source.id)
          .sort();
        const viaWalk = (await discoverInstructionFiles(root, { method: 'walk' })).sources
          .map((source) => source.id)
          .sort();
        expect(viaGit).toEqual(fromGit);
        expect(viaWalk).toEqual(fromGit);
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
