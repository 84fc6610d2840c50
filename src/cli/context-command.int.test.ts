import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstructionPatchSource } from '../harness/index.ts';
import { runContextCommand, type ContextCommandOptions } from './context-command.ts';

let sandbox: string;
let workspace: string;

const patchSource: InstructionPatchSource = {
  readPatch: async (projectId, agent) =>
    projectId === 'p1' ? `Patch de ${agent}: responda em português.` : null,
};

async function run(
  options: ContextCommandOptions,
  deps: { patchSource?: InstructionPatchSource; clock?: () => number } = { patchSource },
) {
  let stdout = '';
  let stderr = '';
  const code = await runContextCommand(options, {
    ...deps,
    readFile: (file) => readFile(file, 'utf8'),
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  sandbox = await mkdtemp(path.join(tmpdir(), 'forja-context-'));
  workspace = path.join(sandbox, 'workspace');
  await mkdir(path.join(workspace, 'pkg/api'), { recursive: true });
  await writeFile(path.join(workspace, 'AGENTS.md'), 'Regras da raiz.\n');
  await writeFile(path.join(workspace, 'pkg/api/AGENTS.md'), 'Regras da API.\n');
  await writeFile(
    path.join(sandbox, 'context.md'),
    `Contexto do projeto. ${'Muito texto. '.repeat(200)}`,
  );
  await writeFile(path.join(sandbox, 'task.md'), 'Implementar o login.\n');
  const rules = [
    { id: 'br-1', text: 'A pessoa confirma a prontidão antes do brief.' },
    { id: 'br-2', text: 'Todo handoff aceito vira evento.' },
  ];
  await writeFile(path.join(sandbox, 'rules.json'), JSON.stringify(rules));
  await writeFile(path.join(sandbox, 'not-json.json'), '{ nope');
  await writeFile(
    path.join(sandbox, 'wrong-shape.json'),
    JSON.stringify([{ id: 'br-1', texto: 'x' }]),
  );
  await writeFile(
    path.join(sandbox, 'twice.json'),
    JSON.stringify([
      { id: 'a', text: 'x' },
      { id: 'a', text: 'y' },
    ]),
  );
});

afterAll(async () => {
  await rm(sandbox, { recursive: true, force: true });
});

const file = (name: string) => path.join(sandbox, name);

describe('forja context', () => {
  it('prints the report object with --json: layers in order, sources in priority order, the patch last', async () => {
    const { code, stdout, stderr } = await run({
      workspace,
      agent: 'dev',
      project: 'p1',
      scope: 'pkg/api/src',
      contextFile: file('context.md'),
      rulesFile: file('rules.json'),
      taskFile: file('task.md'),
      budget: ['contexto_projeto=100'],
      json: true,
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(stdout);
    expect(Object.keys(report)).toEqual([
      'agent',
      'total_tokens',
      'estimated',
      'layers',
      'prompt',
      'instructions',
    ]);
    expect(report.instructions).toEqual({ scope: 'pkg/api/src', method: 'walk' });
    expect(
      report.layers.map((layer: { name: string; status: string }) => [layer.name, layer.status]),
    ).toEqual([
      ['identidade', 'kept'],
      ['instruction_files', 'kept'],
      ['contexto_projeto', 'truncated'],
      ['regras_negocio', 'kept'],
      ['estado_tarefa', 'kept'],
    ]);
    expect(Object.keys(report.layers[1])).toEqual([
      'name',
      'strategy',
      'budget',
      'tokens',
      'estimated',
      'status',
      'units',
      'content',
    ]);
    expect(report.layers[1].units.map((unit: { id: string }) => unit.id)).toEqual([
      'AGENTS.md',
      'pkg/api/AGENTS.md',
      'db:agent_instructions',
    ]);
    expect(report.layers[3].units.map((unit: { id: string }) => unit.id)).toEqual(['br-1', 'br-2']);
    expect(report.layers[2]).toMatchObject({ budget: 100, tokens: 100 });
    expect(report.prompt).toContain(
      '### db:agent_instructions\nPatch de dev: responda em português.',
    );
    expect(report).toMatchObject({ agent: 'dev', estimated: true });
  });

  it('prints each layer with strategy, budget, tokens and status, then the prompt', async () => {
    const { code, stdout } = await run({
      workspace,
      agent: 'po',
      project: 'p1',
      scope: 'pkg/api',
      budget: ['instruction_files=25'],
    });
    expect(code).toBe(0);
    const layerRows = stdout
      .split('\n')
      .filter((line) => /^[a-z_]+ +(keep_or_drop|drop_whole_units|truncate_tail) /.test(line));
    expect(layerRows.map((line) => line.split(/\s+/)[0])).toEqual([
      'identidade',
      'instruction_files',
      'contexto_projeto',
      'regras_negocio',
      'estado_tarefa',
    ]);
    expect(layerRows[1]).toMatch(
      /drop_whole_units\s+25\s+\d+\s+truncated \(dropped: AGENTS\.md, pkg\/api\/AGENTS\.md\)/,
    );
    expect(stdout).toContain('## identidade\nVocê é o PO:');
    expect(stdout).toContain('tokenizer: estimate');
    expect(stdout).toContain('\ninstruction files: walk; path to pkg/api/\n');
  });

  it('prints the same bytes on two runs at different times, as JSON and as text (the debug view is deterministic)', async () => {
    const options: ContextCommandOptions = {
      workspace,
      agent: 'dev',
      project: 'p1',
      scope: 'pkg/api',
      rulesFile: file('rules.json'),
      taskFile: file('task.md'),
    };
    for (const json of [true, false]) {
      const first = await run({ ...options, json }, { patchSource, clock: () => 1_000 });
      const later = await run({ ...options, json }, { patchSource, clock: () => 86_400_000 });
      expect(first.code).toBe(0);
      expect(later.stdout).toBe(first.stdout);
    }
  });

  it('selects by --scope: the path to it for a dev, the root alone without it', async () => {
    const ids = async (options: Partial<ContextCommandOptions>) =>
      JSON.parse(
        (await run({ workspace, json: true, agent: 'dev', ...options }, {})).stdout,
      ).layers[1].units.map((unit: { id: string }) => unit.id);
    expect(await ids({ scope: 'pkg/api' })).toEqual(['AGENTS.md', 'pkg/api/AGENTS.md']);
    expect(await ids({ scope: 'pkg' })).toEqual(['AGENTS.md']);
    expect(await ids({ agent: 'criativo' })).toEqual(['AGENTS.md']);
    expect(await ids({ agent: 'dev:pedidos', scope: 'pkg/api' })).toEqual([
      'AGENTS.md',
      'pkg/api/AGENTS.md',
    ]);
  });

  it("follows the model's window with --window, and takes the server's tokenizer from the environment", async () => {
    const report = async (
      options: Partial<ContextCommandOptions>,
      env?: Record<string, string>,
    ) => {
      let stdout = '';
      await runContextCommand(
        { workspace, agent: 'po', json: true, ...options },
        {
          readFile: (name) => readFile(name, 'utf8'),
          stdout: (text) => void (stdout += text),
          stderr: () => undefined,
          ...(env === undefined ? {} : { env }),
        },
      );
      return JSON.parse(stdout);
    };
    expect((await report({ window: '400000' })).layers[1].budget).toBe(20_000);
    expect(
      (await report({ window: '400000', budget: ['instruction_files=7'] })).layers[1].budget,
    ).toBe(7);
    expect((await report({}, { FORJA_MODEL: 'anthropic:claude-sonnet-4-5' })).estimated).toBe(true);
    expect((await report({}, { FORJA_MODEL: 'openai:gpt-4o' })).estimated).toBe(false);
  });

  it('counts with the BPE tokenizer when asked', async () => {
    const { code, stdout } = await run({ workspace, agent: 'dev', json: true, tokenizer: 'bpe' });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).estimated).toBe(false);
  });

  const usageErrors: Array<[string, ContextCommandOptions, RegExp]> = [
    ['a missing agent', { workspace: 'x' }, /^forja context: --agent: required\n$/],
    [
      'an unknown agent',
      { workspace: 'x', agent: 'ceo' },
      /--agent 'ceo': unknown agent \(expected one of: criativo,/,
    ],
    [
      'an unknown layer',
      { agent: 'dev', budget: ['contexto=5'] },
      /--budget 'contexto=5': unknown layer 'contexto'/,
    ],
    [
      'a negative budget',
      { agent: 'dev', budget: ['estado_tarefa=-5'] },
      /--budget 'estado_tarefa=-5': TOKENS must be a non-negative integer/,
    ],
    [
      'a fractional budget',
      { agent: 'dev', budget: ['estado_tarefa=1.5'] },
      /TOKENS must be a non-negative integer/,
    ],
    [
      'a budget without =',
      { agent: 'dev', budget: ['estado_tarefa'] },
      /--budget 'estado_tarefa': expected LAYER=TOKENS/,
    ],
    [
      'a repeated layer',
      { agent: 'dev', budget: ['identidade=1', 'identidade=2'] },
      /--budget: layer 'identidade' given more than once/,
    ],
    ['an unknown tokenizer', { agent: 'dev', tokenizer: 'gpt' }, /--tokenizer 'gpt': unknown/],
    [
      'a scope outside the workspace',
      { agent: 'dev', scope: '../x' },
      /--scope '\.\.\/x': must not leave the workspace/,
    ],
    [
      'an absolute scope',
      { agent: 'dev', scope: '/etc' },
      /--scope '\/etc': must be relative to the workspace/,
    ],
    [
      'a window that is no number',
      { agent: 'dev', window: 'big' },
      /--window 'big': TOKENS must be a positive integer/,
    ],
    [
      'a dev of no valid module',
      { agent: 'dev:Bad Name' },
      /--agent 'dev:Bad Name': unknown agent/,
    ],
    ['a missing workspace option', { agent: 'dev' }, /--workspace: required/],
  ];

  it.each(usageErrors)('exits 2 with one line for %s', async (_, options, reason) => {
    const { code, stdout, stderr } = await run(options);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(reason);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('exits 2 when the workspace is missing or not a directory', async () => {
    const missing = await run({ workspace: file('nowhere'), agent: 'dev' });
    expect([missing.code, missing.stderr]).toEqual([
      2,
      `forja context: --workspace '${file('nowhere')}': no such directory\n`,
    ]);
    const notDirectory = await run({ workspace: file('task.md'), agent: 'dev' });
    expect(notDirectory.stderr).toMatch(/--workspace '.*task\.md': not a directory/);
  });

  it('exits 2 when a file cannot be read or the rules file is not a JSON array of {id, text}', async () => {
    const cases: Array<[ContextCommandOptions, RegExp]> = [
      [{ contextFile: file('missing.md') }, /--context-file '.*missing\.md': cannot read \(ENOENT/],
      [{ taskFile: file('missing.md') }, /--task-file '.*missing\.md': cannot read/],
      [{ rulesFile: file('not-json.json') }, /--rules-file '.*not-json\.json': not JSON/],
      [
        { rulesFile: file('wrong-shape.json') },
        /--rules-file '.*wrong-shape\.json': at \[0\]\.\[text\]: .*expected an array of \{id/,
      ],
      [
        { rulesFile: file('twice.json') },
        /--rules-file '.*twice\.json': id 'a' appears more than once/,
      ],
      [{ rulesFile: file('task.md') }, /--rules-file '.*task\.md': not JSON/],
    ];
    for (const [options, reason] of cases) {
      const { code, stderr } = await run({ workspace, agent: 'dev', ...options });
      expect([code, stderr.trimEnd().split('\n').length]).toEqual([2, 1]);
      expect(stderr).toMatch(reason);
    }
  });

  it('names skipped instruction files: in the human view, and on stderr beside --json', async () => {
    const withBadFile = path.join(sandbox, 'with-bad-file');
    await mkdir(path.join(withBadFile, 'bad'), { recursive: true });
    await writeFile(path.join(withBadFile, 'bad/AGENTS.md'), new Uint8Array([0xff, 0xfe, 0x00]));
    const human = await run({ workspace: withBadFile, agent: 'dev' });
    expect([human.code, human.stderr]).toEqual([0, '']);
    expect(human.stdout).toContain('skipped instruction sources:\n  bad/AGENTS.md: not_utf8');
    const json = await run({ workspace: withBadFile, agent: 'dev', json: true });
    expect([json.code, json.stderr]).toEqual([
      0,
      'forja context: skipped bad/AGENTS.md: not_utf8\n',
    ]);
    expect(JSON.parse(json.stdout).layers[1].status).toBe('empty');
  });

  it('exits 1 when the database patch cannot be read', async () => {
    const failing: InstructionPatchSource = {
      readPatch: () => Promise.reject(new Error('connection refused')),
    };
    const { code, stderr } = await run(
      { workspace, agent: 'dev', project: 'p1' },
      { patchSource: failing },
    );
    expect([code, stderr]).toEqual([1, 'forja context: connection refused\n']);
  });
});
