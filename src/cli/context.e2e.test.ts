import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProject, openDatabase, writeAgentInstructions } from '../store/index.ts';

const FORJA_BIN = new URL('../../bin/forja.ts', import.meta.url).pathname;

function forja(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [FORJA_BIN, ...args], {
    env: { ...process.env, DATABASE_URL: '', ...env },
    encoding: 'utf8',
  });
}

describe('forja context, as a user runs it', { timeout: 120_000 }, () => {
  it('prints the layers in order with nested AGENTS.md files and the database patch last', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'forja-ctx-ws-'));
    mkdirSync(join(workspace, 'pkg', 'api'), { recursive: true });
    writeFileSync(join(workspace, 'AGENTS.md'), 'Root rule.');
    writeFileSync(join(workspace, 'pkg', 'AGENTS.md'), 'Package rule.');
    writeFileSync(join(workspace, 'pkg', 'api', 'AGENTS.md'), 'API rule.');
    writeFileSync(
      join(workspace, 'rules.json'),
      JSON.stringify([{ id: 'RN-1', text: 'Orders close at 20h.' }]),
    );
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-ctx-data-'));
    const database = await openDatabase({ dataDirectory });
    const project = await createProject(database, { name: 'ctx' });
    await writeAgentInstructions(database, project.id, 'arquiteto', 'Prefer boring technology.');
    await database.close();

    const result = forja(
      [
        'context',
        '--workspace',
        workspace,
        '--agent',
        'arquiteto',
        '--project',
        project.id,
        '--rules-file',
        join(workspace, 'rules.json'),
        '--scope',
        'pkg/api',
        '--json',
      ],
      { FORJA_DATA_DIR: dataDirectory },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.layers.map((layer: { name: string }) => layer.name)).toEqual([
      'identidade',
      'instruction_files',
      'contexto_projeto',
      'regras_negocio',
      'estado_tarefa',
    ]);
    const instructions = report.layers[1];
    expect(instructions.units.map((unit: { id: string }) => unit.id)).toEqual([
      'AGENTS.md',
      'pkg/AGENTS.md',
      'pkg/api/AGENTS.md',
      'db:agent_instructions',
    ]);
    expect(report.layers[3].units).toEqual([
      { id: 'RN-1', tokens: expect.any(Number), kept: true },
    ]);
    expect(report.estimated).toBe(true);
    expect(report.prompt.indexOf('Root rule.')).toBeLessThan(
      report.prompt.indexOf('Prefer boring technology.'),
    );

    const human = forja(
      ['context', '--workspace', workspace, '--agent', 'arquiteto', '--project', project.id],
      { FORJA_DATA_DIR: dataDirectory },
    );
    expect(human.status).toBe(0);
    expect(human.stdout).toMatch(/identidade\s+keep_or_drop/);
    expect(human.stdout).toContain('db:agent_instructions');
  });

  it.each([
    [['--agent', 'nobody'], '--agent'],
    [['--agent', 'po', '--budget', 'nonsense=3'], 'unknown layer'],
    [['--agent', 'po', '--budget', 'regras_negocio=-1'], '--budget'],
  ])('exits 2 with a one-line reason for %j', (extra, mention) => {
    const workspace = mkdtempSync(join(tmpdir(), 'forja-ctx-ws-'));
    const result = forja(['context', '--workspace', workspace, ...extra], {});
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(mention);
  });

  it('exits 2 for a missing workspace directory', () => {
    const result = forja(['context', '--workspace', '/does/not/exist', '--agent', 'po'], {});
    expect(result.status).toBe(2);
  });
});
