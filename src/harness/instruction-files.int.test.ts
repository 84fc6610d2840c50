import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  discoverInstructionFiles,
  type DiscoveredInstructionFiles,
} from './discover-instruction-files.ts';
import { createInstructionFiles, type InstructionFilesOptions } from './instruction-files.ts';

const files: DiscoveredInstructionFiles = {
  sources: [
    { id: 'AGENTS.md', content: 'root', priority_kind: 'root' },
    { id: 'pkg/AGENTS.md', content: 'pkg', priority_kind: 'dir' },
  ],
  skipped: [{ path: 'bad/AGENTS.md', reason: 'not_utf8' }],
};

function harness(overrides: Partial<InstructionFilesOptions> = {}) {
  const calls = { discover: 0, patch: [] as string[], graph: 0 };
  let now = 1_000;
  const loader = createInstructionFiles({
    discover: async () => {
      calls.discover++;
      return files;
    },
    patchSource: {
      readPatch: async (projectId, agent) => {
        calls.patch.push(`${projectId}/${agent}`);
        return `patch for ${agent}`;
      },
    },
    graphTemplateSource: {
      readInstructionTemplate: async (agent) => {
        calls.graph++;
        return `template for ${agent}`;
      },
    },
    flags: { graph_instruction_templates_enabled: false },
    clock: () => now,
    graphTtlMs: 100,
    ...overrides,
  });
  return { loader, calls, advance: (milliseconds: number) => (now += milliseconds) };
}

describe('createInstructionFiles', () => {
  it('returns files, then the database patch last, in ascending priority', async () => {
    const { loader } = harness();
    const loaded = await loader.load({
      workspaceDir: '/ws',
      projectId: 'p1',
      agent: 'dev',
      scope: 'pkg',
    });
    expect(loaded.sources.map((source) => [source.id, source.priority_kind])).toEqual([
      ['AGENTS.md', 'root'],
      ['pkg/AGENTS.md', 'dir'],
      ['db:agent_instructions', 'db'],
    ]);
    expect(loaded.sources.at(-1)?.content).toBe('patch for dev');
    expect(loaded.skipped).toEqual(files.skipped);
  });

  it('reads no patch without a project, and no graph while the flag is off', async () => {
    const { loader, calls } = harness();
    const loaded = await loader.load({ workspaceDir: '/ws', agent: 'dev', scope: 'pkg' });
    expect(loaded.sources.map((source) => source.id)).toEqual(['AGENTS.md', 'pkg/AGENTS.md']);
    expect(calls).toEqual({ discover: 1, patch: [], graph: 0 });
  });

  it('selects by scope: the files on the path to it and the global ones; the root and global ones without', async () => {
    const discovered: DiscoveredInstructionFiles = {
      sources: [
        { id: 'AGENTS.md', content: 'root', priority_kind: 'root', directory: '', global: true },
        { id: 'a/AGENTS.md', content: 'a', priority_kind: 'dir', directory: 'a', global: false },
        { id: 'ab/AGENTS.md', content: 'ab', priority_kind: 'dir', directory: 'ab', global: false },
        {
          id: 'docs/AGENTS.md',
          content: 'docs',
          priority_kind: 'dir',
          directory: 'docs',
          global: true,
        },
        {
          id: 'a/b/AGENTS.md',
          content: 'a/b',
          priority_kind: 'dir',
          directory: 'a/b',
          global: false,
        },
        {
          id: 'a/c/AGENTS.md',
          content: 'a/c',
          priority_kind: 'dir',
          directory: 'a/c',
          global: false,
        },
      ],
      skipped: [],
    };
    const { loader } = harness({ discover: async () => discovered });
    const ids = async (scope?: string) =>
      (
        await loader.load({
          workspaceDir: '/ws',
          agent: 'dev',
          ...(scope === undefined ? {} : { scope }),
        })
      ).sources.map((source) => source.id);
    expect(await ids('a/b/src')).toEqual([
      'AGENTS.md',
      'a/AGENTS.md',
      'docs/AGENTS.md',
      'a/b/AGENTS.md',
    ]);
    expect(await ids('./a/b/')).toEqual([
      'AGENTS.md',
      'a/AGENTS.md',
      'docs/AGENTS.md',
      'a/b/AGENTS.md',
    ]);
    expect(await ids('')).toEqual(['AGENTS.md', 'docs/AGENTS.md']);
    expect(await ids()).toEqual(['AGENTS.md', 'docs/AGENTS.md']);
    await expect(ids('../x')).rejects.toThrow("scope '../x': must not leave the workspace");
  });

  it('gives dev:<module> the patch of dev, then its own (its own last: it wins)', async () => {
    const { loader, calls } = harness();
    const loaded = await loader.load({
      workspaceDir: '/ws',
      projectId: 'p1',
      agent: 'dev:pedidos',
    });
    expect(loaded.sources.slice(-2).map((source) => [source.id, source.content])).toEqual([
      ['db:agent_instructions:family', 'patch for dev'],
      ['db:agent_instructions', 'patch for dev:pedidos'],
    ]);
    expect(calls.patch).toEqual(['p1/dev', 'p1/dev:pedidos']);
  });

  it('caches per (workspace, project, agent) until invalidated', async () => {
    const { loader, calls } = harness();
    await loader.load({ workspaceDir: '/ws', projectId: 'p1', agent: 'dev', scope: 'pkg' });
    await loader.load({ workspaceDir: '/ws/', projectId: 'p1', agent: 'dev' });
    expect(calls.discover).toBe(1);
    await loader.load({ workspaceDir: '/ws', projectId: 'p1', agent: 'po' });
    await loader.load({ workspaceDir: '/ws', projectId: 'p2', agent: 'dev' });
    expect(calls.patch).toEqual(['p1/dev', 'p1/po', 'p2/dev']);
    expect(loader.invalidate({ projectId: 'p1', agent: 'dev' })).toBe(1);
    await loader.load({ workspaceDir: '/ws', projectId: 'p1', agent: 'po' });
    await loader.load({ workspaceDir: '/ws', projectId: 'p1', agent: 'dev', scope: 'pkg' });
    expect(calls.patch).toEqual(['p1/dev', 'p1/po', 'p2/dev', 'p1/dev']);
    expect(loader.invalidate({ workspaceDir: '/elsewhere' })).toBe(0);
    expect(loader.invalidate()).toBe(4); // the workspace's files and three patches
    await loader.load({ workspaceDir: '/ws', projectId: 'p1', agent: 'dev' });
    expect(calls.discover).toBe(2);
  });

  it('puts the graph template between the files and the patch when the flag is on, with a TTL', async () => {
    const { loader, calls, advance } = harness({
      flags: { graph_instruction_templates_enabled: true },
    });
    const request = {
      workspaceDir: '/ws',
      projectId: 'p1',
      agent: 'ux-designer',
      scope: 'pkg/api',
    };
    const loaded = await loader.load(request);
    expect(loaded.sources.map((source) => source.priority_kind)).toEqual([
      'root',
      'dir',
      'graph',
      'db',
    ]);
    expect(loaded.sources[2]).toEqual({
      id: 'graph:instruction_template',
      content: 'template for ux-designer',
      priority_kind: 'graph',
    });
    advance(99);
    await loader.load(request);
    expect(calls.graph).toBe(1);
    advance(1);
    await loader.load(request);
    expect(calls).toMatchObject({ graph: 2, discover: 1, patch: ['p1/ux-designer'] });
  });

  it('skips a failing graph by name and leaves every other source as it was', async () => {
    const { loader } = harness({
      flags: { graph_instruction_templates_enabled: true },
      graphTemplateSource: {
        readInstructionTemplate: () => Promise.reject(new Error('graph down')),
      },
    });
    const loaded = await loader.load({
      workspaceDir: '/ws',
      projectId: 'p1',
      agent: 'dev',
      scope: 'pkg',
    });
    expect(loaded.sources.map((source) => source.id)).toEqual([
      'AGENTS.md',
      'pkg/AGENTS.md',
      'db:agent_instructions',
    ]);
    expect(loaded.skipped).toContainEqual({
      path: 'graph:instruction_template',
      reason: 'graph_source_failed',
      detail: 'graph down',
    });
  });

  it('rejects when the patch source fails, and tries again on the next load', async () => {
    let failures = 1;
    const { loader } = harness({
      patchSource: {
        readPatch: async () => {
          if (failures-- > 0) throw new Error('database down');
          return null;
        },
      },
    });
    const request = { workspaceDir: '/ws', projectId: 'p1', agent: 'dev', scope: 'pkg' };
    await expect(loader.load(request)).rejects.toThrow('database down');
    expect((await loader.load(request)).sources).toHaveLength(2);
  });
});

describe('createInstructionFiles on a real workspace', () => {
  let workspace: string;

  beforeAll(async () => {
    workspace = await mkdtemp(path.join(tmpdir(), 'forja-loader-'));
    await mkdir(path.join(workspace, 'svc'));
    await writeFile(path.join(workspace, 'AGENTS.md'), 'root v1');
    await writeFile(path.join(workspace, 'svc/AGENTS.md'), 'svc');
  });

  afterAll(async () => {
    await rm(workspace, { recursive: true, force: true });
  });

  it('serves the cached files while they hold, and sees an edited, added or removed file on the next load', async () => {
    let now = 0;
    const loader = createInstructionFiles({
      flags: { graph_instruction_templates_enabled: false },
      clock: () => now,
    });
    const load = () => loader.load({ workspaceDir: workspace, agent: 'dev', scope: 'svc' });
    const contents = async () =>
      (await load()).sources.map((source) => [source.id, source.content]);
    expect(await contents()).toEqual([
      ['AGENTS.md', 'root v1'],
      ['svc/AGENTS.md', 'svc'],
    ]);
    now = 5;
    expect((await load()).refreshedAtMs).toBeLessThanOrEqual(5);
    await writeFile(path.join(workspace, 'AGENTS.md'), 'root v2');
    expect((await contents())[0]).toEqual(['AGENTS.md', 'root v2']);
    await writeFile(path.join(workspace, 'svc/AGENTS.override.md'), 'svc override');
    expect(await contents()).toEqual([
      ['AGENTS.md', 'root v2'],
      ['svc/AGENTS.override.md', 'svc override'],
    ]);
    await rm(path.join(workspace, 'svc/AGENTS.override.md'));
    await rm(path.join(workspace, 'svc/AGENTS.md'));
    expect(await contents()).toEqual([['AGENTS.md', 'root v2']]);
  });

  it('reads the workspace once while nothing changes (old files are trusted by their stamps)', async () => {
    const quiet = await mkdtemp(path.join(tmpdir(), 'forja-loader-quiet-'));
    await writeFile(path.join(quiet, 'AGENTS.md'), 'root');
    const old = new Date(Date.now() - 60_000);
    await utimes(path.join(quiet, 'AGENTS.md'), old, old);
    await utimes(quiet, old, old);
    let discoveries = 0;
    const loader = createInstructionFiles({
      flags: { graph_instruction_templates_enabled: false },
      clock: () => 0,
      discover: (directory) => (discoveries++, discoverInstructionFiles(directory)),
    });
    for (let index = 0; index < 5; index++) await loader.load({ workspaceDir: quiet, agent: 'po' });
    expect(discoveries).toBe(1);
    await rm(quiet, { recursive: true, force: true });
  });
});
