import { link, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readWorkspaceDocuments } from './read-workspace-documents.ts';

const SECRET = 'OPENAI_API_KEY=sk-host-only';

describe('readWorkspaceDocuments', () => {
  let workspace: string;
  let outside: string;
  beforeEach(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'forja-documents-'));
    outside = await mkdtemp(join(tmpdir(), 'forja-outside-'));
    await writeFile(join(outside, 'key.env'), SECRET);
    await writeFile(join(outside, 'notes.md'), SECRET);
  });
  afterEach(async () => {
    await rm(workspace, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('reads README.md and docs/**/*.md of the workspace', async () => {
    await writeFile(join(workspace, 'README.md'), '# Loja');
    await mkdir(join(workspace, 'docs', 'deep'), { recursive: true });
    await writeFile(join(workspace, 'docs', 'deep', 'b.md'), 'b');
    await writeFile(join(workspace, 'docs', 'a.md'), 'a');
    await writeFile(join(workspace, 'docs', 'c.txt'), 'c');
    expect(await readWorkspaceDocuments(workspace)).toEqual([
      { path: 'README.md', content: '# Loja' },
      { path: 'docs/a.md', content: 'a' },
      { path: 'docs/deep/b.md', content: 'b' },
    ]);
  });

  it('never returns what a link (or a second hard link) points to outside the workspace', async () => {
    await symlink(join(outside, 'key.env'), join(workspace, 'README.md'));
    await mkdir(join(workspace, 'docs'));
    await symlink(join(outside, 'key.env'), join(workspace, 'docs', 'key.md'));
    await symlink(outside, join(workspace, 'docs', 'linked'));
    await link(join(outside, 'notes.md'), join(workspace, 'docs', 'hard.md'));
    await writeFile(join(workspace, 'docs', 'own.md'), 'own');
    expect(await readWorkspaceDocuments(workspace)).toEqual([
      { path: 'docs/own.md', content: 'own' },
    ]);
  });

  it('reads nothing through a docs/ that is a link, nor from a workspace that does not exist', async () => {
    await symlink(outside, join(workspace, 'docs'));
    expect(await readWorkspaceDocuments(workspace)).toEqual([]);
    expect(await readWorkspaceDocuments(join(workspace, 'missing'))).toEqual([]);
  });
});
