import fc from 'fast-check';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverInstructionFiles } from './discover-instruction-files.ts';
import { orderInstructionPaths } from './order-instruction-paths.ts';

async function write(root: string, relative: string, content: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), content);
}

describe('discoverInstructionFiles', () => {
  let sandbox: string;
  let workspace: string;

  beforeAll(async () => {
    sandbox = await mkdtemp(path.join(tmpdir(), 'forja-discover-'));
    workspace = path.join(sandbox, 'workspace');
    await write(sandbox, 'outside/AGENTS.md', 'secret');
    const files: Record<string, string | Uint8Array> = {
      'AGENTS.md': 'root',
      '.gitignore': 'node_modules/\nignored-dir/\n',
      '.git/AGENTS.md': 'git internals',
      'node_modules/lib/AGENTS.md': 'dependency',
      'ignored-dir/AGENTS.md': 'ignored',
      'pkg/AGENTS.md': 'pkg',
      'pkg/api/AGENTS.md': 'api',
      'pkg/api/.gitignore': 'local/\n',
      'pkg/api/local/AGENTS.md': 'ignored by the nested .gitignore',
      'b/AGENTS.md': '\ufeffb with a byte-order mark',
      'b/agents.md': 'wrong case',
      'bad/AGENTS.md': new Uint8Array([0x6f, 0x6c, 0xe1, 0xff, 0xfe]),
      'big/AGENTS.md': 'x'.repeat(2000),
    };
    for (const [relative, content] of Object.entries(files))
      await write(workspace, relative, content);
    await mkdir(path.join(workspace, 'link'));
    await symlink(path.join(sandbox, 'outside/AGENTS.md'), path.join(workspace, 'link/AGENTS.md'));
    await mkdir(path.join(workspace, 'inner'));
    await symlink('../pkg/AGENTS.md', path.join(workspace, 'inner/AGENTS.md'));
    await mkdir(path.join(workspace, 'broken'));
    await symlink('missing.md', path.join(workspace, 'broken/AGENTS.md'));
    await symlink(path.join(workspace, 'pkg'), path.join(workspace, 'dirlink'));
  });

  afterAll(async () => {
    await rm(sandbox, { recursive: true, force: true });
  });

  it('returns AGENTS.md files in ascending priority, skipping .git and what .gitignore files ignore', async () => {
    const result = await discoverInstructionFiles(workspace, { maxFileBytes: 1000 });
    expect(result.method).toBe('walk');
    expect(result.sources).toEqual([
      { id: 'AGENTS.md', content: 'root', priority_kind: 'root', directory: '', global: true },
      {
        id: 'b/AGENTS.md',
        content: 'b with a byte-order mark',
        priority_kind: 'dir',
        directory: 'b',
        global: false,
      },
      {
        id: 'pkg/AGENTS.md',
        content: 'pkg',
        priority_kind: 'dir',
        directory: 'pkg',
        global: false,
      },
      {
        id: 'pkg/api/AGENTS.md',
        content: 'api',
        priority_kind: 'dir',
        directory: 'pkg/api',
        global: false,
      },
    ]);
  });

  it('names every file it could not use instead of throwing', async () => {
    const result = await discoverInstructionFiles(workspace, { maxFileBytes: 1000 });
    expect(result.skipped.map((skip) => [skip.path, skip.reason, skip.detail ?? ''])).toEqual([
      ['bad/AGENTS.md', 'not_utf8', ''],
      ['big/AGENTS.md', 'too_large', '2000 bytes > 1000'],
      ['broken/AGENTS.md', 'unreadable', expect.stringContaining('ENOENT')],
      ['inner/AGENTS.md', 'duplicate', 'pkg/AGENTS.md'], // a link to pkg/AGENTS.md: read once, under its own path
      ['link/AGENTS.md', 'symlink_escapes_workspace', expect.stringContaining('outside')],
    ]);
  });

  it('rejects when the workspace itself does not exist', async () => {
    await expect(discoverInstructionFiles(path.join(sandbox, 'nowhere'))).rejects.toThrow(/ENOENT/);
  });

  it('orders any random directory tree by depth, then bytes', async () => {
    const segment = fc.constantFrom('a', 'b', 'B', 'é', 'z1', '😀');
    const directories = fc.uniqueArray(
      fc.array(segment, { maxLength: 4 }).map((parts) => parts.join('/')),
      {
        maxLength: 12,
      },
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(directories, async (relativeDirectories) => {
        const root = path.join(sandbox, `tree-${run++}`);
        await mkdir(root);
        const created = relativeDirectories.map((directory) =>
          directory === '' ? 'AGENTS.md' : `${directory}/AGENTS.md`,
        );
        for (const relative of created) await write(root, relative, relative);
        const result = await discoverInstructionFiles(root);
        expect(result.sources.map((source) => source.id)).toEqual(orderInstructionPaths(created));
        expect(result.sources.every((source) => source.content === source.id)).toBe(true);
      }),
      { numRuns: 25 },
    );
  });
});
