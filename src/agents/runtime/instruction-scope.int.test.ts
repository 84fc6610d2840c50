import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInstructionFiles } from '../../harness/index.ts';
import { buildSystemPrompt, type PromptSources } from './build-system-prompt.ts';
import { AGENT_ROSTER, identityFrom } from '../roster.ts';

const PACKAGES = 200;

describe('instruction files in a monorepo of 200 packages', () => {
  let workspace: string;
  let sources: PromptSources;

  beforeAll(async () => {
    workspace = await mkdtemp(path.join(tmpdir(), 'forja-monorepo-'));
    await writeFile(
      path.join(workspace, 'AGENTS.md'),
      `ROOT-RULES: use pnpm; every change has a test.\n${'Root guidance line.\n'.repeat(80)}`,
    );
    await mkdir(path.join(workspace, 'packages'));
    await writeFile(
      path.join(workspace, 'packages', 'AGENTS.md'),
      `PACKAGES-RULES: each package exports from src/index.ts.\n${'Package guidance.\n'.repeat(20)}`,
    );
    for (let index = 0; index < PACKAGES; index++) {
      await mkdir(path.join(workspace, 'packages', `pkg-${index}`, 'src'), { recursive: true });
      await writeFile(
        path.join(workspace, 'packages', `pkg-${index}`, 'AGENTS.md'),
        `PKG-${index}-RULES: the rules of pkg-${index}.\n${'Local detail.\n'.repeat(10)}`,
      );
    }
    execFileSync('git', ['init', '-q'], { cwd: workspace });
    const instructionFiles = createInstructionFiles({
      flags: { graph_instruction_templates_enabled: false },
      clock: Date.now,
    });
    sources = {
      identity: identityFrom(AGENT_ROSTER),
      instructionFiles,
      workspaceDirectory: () => workspace,
    };
  });

  afterAll(async () => {
    await rm(workspace, { recursive: true, force: true });
  });

  const parts = (instructionScope?: string) => ({
    taskState: 'Tarefa.',
    ...(instructionScope === undefined ? {} : { instructionScope }),
  });

  it('gives the dev of packages/pkg-7 the root, packages/ and packages/pkg-7 files, the root whole', async () => {
    const report = await buildSystemPrompt(
      sources,
      'dev:pkg-7',
      '00000000-0000-4000-8000-000000000001',
      parts('packages/pkg-7'),
    );
    const layer = report.layers[1];
    expect(layer?.units).toEqual([
      { id: 'AGENTS.md', tokens: expect.any(Number), kept: true },
      { id: 'packages/AGENTS.md', tokens: expect.any(Number), kept: true },
      { id: 'packages/pkg-7/AGENTS.md', tokens: expect.any(Number), kept: true },
    ]);
    expect(report.prompt).toContain('### AGENTS.md\nVale para todo o repositório.\nROOT-RULES');
    expect(report.prompt).toContain(
      '### packages/pkg-7/AGENTS.md\nVale para packages/pkg-7/ e tudo abaixo.\nPKG-7-RULES',
    );
    expect(report.prompt).not.toMatch(/PKG-(?!7-)\d+-RULES/);
  });

  it('gives Criativo the root file alone', async () => {
    const report = await buildSystemPrompt(
      sources,
      'criativo',
      '00000000-0000-4000-8000-000000000001',
      parts(),
    );
    expect(report.layers[1]?.units?.map((unit) => [unit.id, unit.kept])).toEqual([
      ['AGENTS.md', true],
    ]);
  });

  it('keeps the head of the root when a small budget cannot hold the path (root kept in part, marked)', async () => {
    const small = { ...sources, contextWindowTokens: 2000 }; // a quarter of the window: 500 tokens
    const report = await buildSystemPrompt(
      small,
      'dev:pkg-7',
      '00000000-0000-4000-8000-000000000001',
      parts('packages/pkg-7'),
    );
    expect(report.layers[1]).toMatchObject({ budget: 500, status: 'truncated' });
    expect(
      report.layers[1]?.units?.map((unit) => [unit.id, unit.kept, unit.truncated ?? false]),
    ).toEqual([
      ['AGENTS.md', true, true],
      ['packages/AGENTS.md', true, false],
      ['packages/pkg-7/AGENTS.md', true, false],
    ]);
    expect(report.prompt).toContain('ROOT-RULES');
    expect(report.prompt).toContain('[… truncado …]\n\n### packages/AGENTS.md');
  });
});
