import { mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readInstructionFile } from './read-instruction-file.ts';

const SECRET = 'HOST-ONLY: the API key is sk-123';

describe('readInstructionFile', () => {
  let root: string;
  let outside: string;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'forja-instructions-')));
    outside = await realpath(await mkdtemp(join(tmpdir(), 'forja-outside-')));
    await writeFile(join(outside, 'AGENTS.md'), SECRET);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });
  const read = (relative: string) => readInstructionFile(root, root, relative, 1024 * 1024);

  it('reads a file of the workspace, and one a link inside it points to', async () => {
    await writeFile(join(root, 'AGENTS.md'), 'Use pnpm.');
    await symlink('AGENTS.md', join(root, 'CLAUDE.md'));
    expect(await read('AGENTS.md')).toMatchObject({ read: { content: 'Use pnpm.' } });
    expect(await read('CLAUDE.md')).toMatchObject({
      read: { realPath: join(root, 'AGENTS.md'), content: 'Use pnpm.' },
    });
  });

  it('never returns a host file, through a link to it or through a linked directory', async () => {
    await symlink(join(outside, 'AGENTS.md'), join(root, 'AGENTS.md'));
    await symlink(outside, join(root, 'linked'));
    expect(await read('AGENTS.md')).toMatchObject({
      skip: { path: 'AGENTS.md', reason: 'symlink_escapes_workspace' },
    });
    const throughDirectory = await read('linked/AGENTS.md');
    expect(throughDirectory).toMatchObject({
      skip: {
        path: 'linked/AGENTS.md',
        reason: 'unreadable',
        detail: expect.stringContaining('outside the repository'),
      },
    });
    expect(JSON.stringify(throughDirectory)).not.toContain('sk-123');
  });
});
