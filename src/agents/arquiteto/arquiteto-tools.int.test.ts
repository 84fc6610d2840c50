import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  validateModuleContractsDeclaration,
  validateModuleMapDeclaration,
} from '../../domain/architecture/index.ts';
import type { Database } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { gitAt } from '../../workspace/index.ts';
import { openLineFixture, type LineFixture } from '../dev/test-support/line-fixture.ts';
import type { AgentTool } from '../runtime/agent-tool.ts';
import { assignTasksTool } from './assign-tasks-tool.ts';
import { declareTools } from './declare-tools.ts';
import { handOffToDevsTool } from './hand-off-to-devs-tool.ts';

const MAP = {
  version: 1,
  modules: [
    { name: 'catalogo', stack: 'TypeScript', responsibility: 'Os pães à venda', dependsOn: [] },
    {
      name: 'pedidos',
      stack: 'TypeScript',
      responsibility: 'Os pedidos de assinatura',
      dependsOn: ['catalogo'],
    },
  ],
};
/** The domain's reason for a refused declaration: the text the tool must return unchanged. */
const reasonOf = (validation: { ok: boolean }) =>
  (validation as unknown as { reason: string }).reason;
const item = (assinatura = 'listarPaes(): Pao[]') => ({ tipo: 'funcao', assinatura });
const contracts = (contratos: unknown[], version = 1) => ({ version, contratos });

/** Record ADR 0200: every refusal of declare_module_contracts, each returned to the model in full. */
const CONTRACT_REFUSALS: Array<[string, unknown, string]> = [
  [
    'a module not in the current map, listing the valid ones',
    contracts([{ modulo: 'estoque', expoe: [item()] }]),
    'module "estoque" is not in the current module map (version 1); valid modules: catalogo, pedidos',
  ],
  [
    'a repeated module',
    contracts([
      { modulo: 'catalogo', expoe: [item()] },
      { modulo: 'catalogo', expoe: [item()] },
    ]),
    'module "catalogo" appears more than once',
  ],
  ['an empty expoe', contracts([{ modulo: 'catalogo', expoe: [] }]), 'expoe is empty'],
  [
    'more than 40 items',
    contracts([
      { modulo: 'catalogo', expoe: Array.from({ length: 41 }, (_, index) => item(`f${index}()`)) },
    ]),
    'expoe has 41 items; the limit is 40',
  ],
  [
    'an unknown tipo',
    contracts([{ modulo: 'catalogo', expoe: [{ tipo: 'classe', assinatura: 'Pao' }] }]),
    'unknown tipo "classe"; valid: funcao, rota, evento, dado',
  ],
  [
    'an empty assinatura',
    contracts([{ modulo: 'catalogo', expoe: [item('   ')] }]),
    'assinatura must not be empty',
  ],
  [
    'an assinatura longer than 300 characters',
    contracts([{ modulo: 'catalogo', expoe: [item('x'.repeat(301))] }]),
    'assinatura has 301 characters; the limit is 300',
  ],
];

describe.each(testDatabaseEngines())('the Arquiteto declare tools on $name', (engine) => {
  let database: Database;
  let fixture: LineFixture;
  let tools: AgentTool[];
  beforeAll(async () => (database = await engine.open()));
  afterAll(() => database.close());
  beforeEach(async () => {
    fixture = await openLineFixture(engine, { database });
    tools = [...declareTools(fixture.line), assignTasksTool(fixture.line)];
  });
  afterEach(() => fixture.close());
  const arquiteto = { agent: 'arquiteto' };

  it('refuses contracts before any module map, with the reason, and records nothing', async () => {
    const outcome = await fixture.call(
      tools,
      'declare_module_contracts',
      contracts([{ modulo: 'catalogo', expoe: [item()] }]),
      arquiteto,
    );
    expect(outcome).toEqual({
      ok: false,
      result: reasonOf(
        validateModuleContractsDeclaration(
          contracts([{ modulo: 'catalogo', expoe: [item()] }]),
          null,
        ),
      ),
    });
    expect(outcome.result).toContain(
      'this project has no module map yet; declare it with declare_module_map first',
    );
    expect(await fixture.artifactTypes()).toEqual([]);
  });

  it.each(CONTRACT_REFUSALS)(
    'refuses contracts with %s, returning the full reason, and records nothing',
    async (_name, args, expected) => {
      await fixture.recordArtifact('module_map', MAP);
      const outcome = await fixture.call(tools, 'declare_module_contracts', args, arquiteto);
      expect(outcome.ok).toBe(false);
      expect(outcome.result).toContain(expected);
      expect(outcome.result).toBe(reasonOf(validateModuleContractsDeclaration(args, MAP as never)));
      expect(await fixture.artifactTypes()).toEqual(['artifact.module_map']);
    },
  );

  it('reports every problem of one declaration together', async () => {
    await fixture.recordArtifact('module_map', MAP);
    const args = contracts([
      { modulo: 'estoque', expoe: [{ tipo: 'classe', assinatura: '' }] },
      { modulo: 'catalogo', expoe: [] },
    ]);
    const outcome = await fixture.call(tools, 'declare_module_contracts', args, arquiteto);
    expect(outcome.result).toMatch(
      /^declare_module_contracts refused \(4 problems\); nothing was recorded\./,
    );
  });

  it('refuses a map with a cycle, naming it, or with an unknown dependency', async () => {
    const cyclic = {
      version: 1,
      modules: [{ ...MAP.modules[0], dependsOn: ['pedidos'] }, MAP.modules[1]],
    };
    const cycle = await fixture.call(tools, 'declare_module_map', cyclic, arquiteto);
    expect(cycle).toEqual({ ok: false, result: reasonOf(validateModuleMapDeclaration(cyclic)) });
    expect(cycle.result).toContain('dependency cycle catalogo → pedidos → catalogo');
    const unknown = { version: 1, modules: [{ ...MAP.modules[1], dependsOn: ['estoque'] }] };
    expect((await fixture.call(tools, 'declare_module_map', unknown, arquiteto)).result).toContain(
      'module "pedidos" depends on "estoque", which is not a module of this map',
    );
    expect(await fixture.artifactTypes()).toEqual([]);
  });

  it('records a declaration whole, writes docs/ on main, and replaces both with a newer version', async () => {
    expect(await fixture.call(tools, 'declare_module_map', MAP, arquiteto)).toMatchObject({
      ok: true,
      result: expect.stringContaining(
        'Recorded module_map version 1: 2 module(s): catalogo, pedidos',
      ),
    });
    const first = contracts([{ modulo: 'catalogo', expoe: [item()] }]);
    expect((await fixture.call(tools, 'declare_module_contracts', first, arquiteto)).ok).toBe(true);
    const workspace = fixture.workspaces.workspaceDirectory(fixture.projectId);
    expect(await readFile(join(workspace, 'docs/module-contracts.md'), 'utf8')).toContain(
      '# Module contracts — version 1',
    );

    const second = contracts(
      [{ modulo: 'pedidos', expoe: [{ tipo: 'rota', assinatura: 'POST /pedidos' }] }],
      2,
    );
    expect(await fixture.call(tools, 'declare_module_contracts', second, arquiteto)).toMatchObject({
      ok: true,
      result: expect.stringContaining('It replaces version 1.'),
    });
    const doc = await readFile(join(workspace, 'docs/module-contracts.md'), 'utf8');
    expect(doc).toContain('# Module contracts — version 2');
    expect(doc).not.toContain('listarPaes');
    const log = await gitAt(workspace).raw([
      'log',
      '--format=%s',
      'main',
      '--',
      'docs/module-contracts.md',
    ]);
    expect(log.trim().split('\n')).toEqual([
      'docs: module_contracts version 2',
      'docs: module_contracts version 1',
    ]);

    const older = await fixture.call(tools, 'declare_module_contracts', first, arquiteto);
    expect(older).toMatchObject({
      ok: false,
      result: expect.stringContaining(
        'version: 1 is lower than the current module_contracts version 2',
      ),
    });
    expect(await fixture.artifactTypes()).toEqual([
      'artifact.module_map',
      'artifact.module_contracts',
      'artifact.module_contracts',
    ]);
  });

  it('never writes docs/ through a link a dev left: the host file stays, the model is told why', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'forja-outside-'));
    try {
      await writeFile(join(outside, 'root-only.conf'), 'host\n');
      const workspace = await fixture.workspaces.ensureWorkspace(fixture.projectId);
      await mkdir(join(workspace, 'docs'), { recursive: true });
      await symlink(join(outside, 'root-only.conf'), join(workspace, 'docs/module-map.md'));
      expect(await fixture.call(tools, 'declare_module_map', MAP, arquiteto)).toMatchObject({
        ok: true,
        result: expect.stringContaining(
          '(docs/module-map.md could not be written: docs/module-map.md cannot be written: it is a symbolic link',
        ),
      });
      expect(await readFile(join(outside, 'root-only.conf'), 'utf8')).toBe('host\n');
      expect(await fixture.artifactTypes()).toEqual(['artifact.module_map']);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('hand_off_to_devs first brings docs/ on main in line with the log (the docs port, ADR 0235)', async () => {
    // Recorded without its tool, so no docs/ file was written for it.
    await fixture.recordArtifact('module_map', MAP);
    await fixture.call([handOffToDevsTool(fixture.line)], 'hand_off_to_devs', {}, arquiteto);
    const workspace = fixture.workspaces.workspaceDirectory(fixture.projectId);
    expect(await gitAt(workspace).raw(['show', 'main:docs/module-map.md'])).toContain(
      '# Module map — version 1',
    );
    expect(await gitAt(workspace).raw(['log', '-1', '--format=%s', 'main'])).toBe(
      'docs: current architecture (module_map v1)\n',
    );
  });

  it('routes and diagrams only modules of the current map', async () => {
    const route = { version: 1, routes: [{ module: 'estoque', infra: 'worker' }] };
    expect(
      (await fixture.call(tools, 'route_modules_to_infra', route, arquiteto)).result,
    ).toContain('no module map yet');
    await fixture.recordArtifact('module_map', MAP);
    expect(
      (await fixture.call(tools, 'route_modules_to_infra', route, arquiteto)).result,
    ).toContain('valid modules: catalogo, pedidos');
    const diagram = {
      version: 1,
      system: { name: 'Padaria', description: 'Pão por assinatura' },
      actors: [{ id: 'cliente', kind: 'person', name: 'Cliente' }],
      relations: [{ from: 'cliente', to: 'pedidos', description: 'assina' }],
    };
    expect(await fixture.call(tools, 'declare_c4_diagram', diagram, arquiteto)).toMatchObject({
      ok: true,
    });
    expect(
      await readFile(
        join(fixture.workspaces.workspaceDirectory(fixture.projectId), 'docs/c4-diagram.md'),
        'utf8',
      ),
    ).toContain('```mermaid');
  });

  it('assigns tasks to modules of the map, every problem reported at once', async () => {
    const task = {
      id: 'AT-001',
      story_id: 'HS-001',
      title: 'Listar pães',
      description: 'A lista de pães',
      acceptance_criteria: ['mostra os pães'],
    };
    await fixture.recordArtifact('task', task, 'po');
    expect(
      (
        await fixture.call(
          tools,
          'assign_tasks_to_modules',
          { assignments: [{ task_id: 'AT-001', module: 'catalogo' }] },
          arquiteto,
        )
      ).result,
    ).toContain('no module map yet');
    await fixture.recordArtifact('module_map', MAP);
    const wrong = await fixture.call(
      tools,
      'assign_tasks_to_modules',
      { assignments: [{ task_id: 'AT-009', module: 'estoque' }] },
      arquiteto,
    );
    expect(wrong.result).toContain('assign_tasks_to_modules refused (2 problems)');
    expect(wrong.result).toContain('AT-009 is not a task of the backlog; tasks: AT-001');
    const right = await fixture.call(
      tools,
      'assign_tasks_to_modules',
      { assignments: [{ task_id: 'AT-001', module: 'catalogo' }] },
      arquiteto,
    );
    expect(right).toMatchObject({
      ok: true,
      result: 'Assigned: AT-001 → catalogo. Every task has a module.',
    });
    const last = (await fixture.eventLog.read(fixture.sessionId)).at(-1)!;
    expect(last).toMatchObject({
      type: 'artifact.task',
      payload: { data: { ...task, module: 'catalogo' } },
    });
  });
});
