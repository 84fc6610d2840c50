import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiscoveredInstructionFiles } from './discover-instruction-files.ts';
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
    const loaded = await loader.load({ workspaceDir: '/ws', projectId: 'p1', agent: 'dev' });
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
    const loaded = await loader.load({ workspaceDir: '/ws', agent: 'dev' });
    expect(loaded.sources.map((source) => source.id)).toEqual(['AGENTS.md', 'pkg/AGENTS.md']);
    expect(calls).toEqual({ discover: 1, patch: [], graph: 0 });
  });

  it('caches per (workspace, project, agent) until invalidated', async () => {
    const { loader, calls } = harness();
    await loader.load({ workspaceDir: '/ws', projectId: 'p1', agent: 'dev' });
    await loader.load({ workspaceDir: '/ws/', projectId: 'p1', agent: 'dev' });
    expect(calls.discover).toBe(1);
    await loader.load({ workspaceDir: '/ws', projectId: 'p1', agent: 'po' });
    await loader.load({ workspaceDir: '/ws', projectId: 'p2', agent: 'dev' });
    expect(calls.patch).toEqual(['p1/dev', 'p1/po', 'p2/dev']);
    expect(loader.invalidate({ projectId: 'p1', agent: 'dev' })).toBe(1);
    await loader.load({ workspaceDir: '/ws', projectId: 'p1', agent: 'po' });
    await loader.load({ workspaceDir: '/ws', projectId: 'p1', agent: 'dev' });
    expect(calls.patch).toEqual(['p1/dev', 'p1/po', 'p2/dev', 'p1/dev']);
    expect(loader.invalidate({ workspaceDir: '/elsewhere' })).toBe(0);
    expect(loader.invalidate()).toBe(3);
  });

  it('puts the graph template between the files and the patch when the flag is on, with a TTL', async () => {
    const { loader, calls, advance } = harness({ flags: { graph_instruction_templates_enabled: true } });
    const request = { workspaceDir: '/ws', projectId: 'p1', agent: 'ux-designer' };
    const loaded = await loader.load(request);
    expect(loaded.sources.map((source) => source.priority_kind)).toEqual(['root', 'dir', 'graph', 'db']);
    expect(loaded.sources[2]).toEqual({ id: 'graph:instruction_template', content: 'template for ux-designer', priority_kind: 'graph' });
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
      graphTemplateSource: { readInstructionTemplate: () => Promise.reject(new Error('graph down')) },
    });
    const loaded = await loader.load({ workspaceDir: '/ws', projectId: 'p1', agent: 'dev' });
    expect(loaded.sources.map((source) => source.id)).toEqual(['AGENTS.md', 'pkg/AGENTS.md', 'db:agent_instructions']);
    expect(loaded.skipped).toContainEqual({ path: 'graph:instruction_template', reason: 'graph_source_failed', detail: 'graph down' });
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
    const request = { workspaceDir: '/ws', projectId: 'p1', agent: 'dev' };
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

  it('serves the cached files until invalidate, then reads the workspace again', async () => {
    const loader = createInstructionFiles({ flags: { graph_instruction_templates_enabled: false }, clock: () => 0 });
    const first = await loader.load({ workspaceDir: workspace, agent: 'dev' });
    expect(first.sources.map((source) => [source.id, source.content])).toEqual([['AGENTS.md', 'root v1'], ['svc/AGENTS.md', 'svc']]);
    await writeFile(path.join(workspace, 'AGENTS.md'), 'root v2');
    expect((await loader.load({ workspaceDir: workspace, agent: 'dev' })).sources[0]?.content).toBe('root v1');
    loader.invalidate({ workspaceDir: workspace });
    expect((await loader.load({ workspaceDir: workspace, agent: 'dev' })).sources[0]?.content).toBe('root v2');
  });
});
