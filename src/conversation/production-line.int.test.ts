import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { validateModuleContractsDeclaration } from '../domain/architecture/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';
import { startLine } from './testing/start-line.ts';
import {
  gitAt,
  INTEGRATION_BRANCH,
  workspaceDirectory,
  worktreeDirectory,
} from '../workspace/index.ts';
import {
  MAP,
  MAP_V2,
  CATALOGO_CHECK,
  CATALOGO_CHECK_BLOCK,
  WRONG_CONTRACTS,
  CONTRACTS,
  CONTRACTS_V2,
  CATALOGO_CODE,
  PEDIDOS_CODE_FIXED,
  UP_TO_ARQUITETO,
  PRODUCTION_LINE,
} from './testing/production-line-script.ts';

const toolResults = async (forja: Forja, sessionId: string, agent: string) =>
  (await forja.eventLog.read(sessionId, { limit: 10_000 }))
    .filter(
      (event) =>
        event.type === 'tool.completed' && (event.payload as { agent: string }).agent === agent,
    )
    .map((event) => event.payload as { tool: string; args: unknown; ok: boolean; result: string });

describe.each(testDatabaseEngines())('the production line on $name', (engine) => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('goes from an idea to two dev agents in their own worktrees; a block reaches the Arquiteto, whose contracts v2 unblock the dev', {
    timeout: 240_000,
  }, async () => {
    const line = await startLine(engine, { turns: PRODUCTION_LINE });
    close = line.close;
    const { forja, provider, dataDirectory } = line;
    const { projectId, sessionId } = await playUpToTheDevs(forja);

    // The PO: a backlog with stable ids, its handoff completed, the work offered to the Arquiteto.
    expect(
      (await requestJson(forja, 'GET', `/api/projects/${projectId}/backlog`)).body.tasks.map(
        (task: { id: string; module?: string }) => [task.id, task.module],
      ),
    ).toEqual([
      ['AT-001', 'catalogo'],
      ['AT-002', 'pedidos'],
      ['AT-003', 'pedidos'],
    ]);

    // The Arquiteto: the first contracts refused with the full reason, then the corrected ones current.
    const contractCalls = (await toolResults(forja, sessionId, 'arquiteto')).filter(
      (call) => call.tool === 'declare_module_contracts',
    );
    expect(contractCalls.map((call) => call.ok)).toEqual([false, true]);
    expect(contractCalls[0]!.result).toBe(
      (validateModuleContractsDeclaration(WRONG_CONTRACTS, MAP as never) as { reason: string })
        .reason,
    );
    expect(contractCalls[0]!.result).toContain(
      'unknown tipo "classe"; valid: funcao, rota, evento, dado',
    );
    expect(contractCalls[0]!.result).toContain(
      'module "estoque" is not in the current module map (version 1); valid modules: catalogo, pedidos',
    );
    const architecture = (
      await requestJson(forja, 'GET', `/api/projects/${projectId}/architecture`)
    ).body;
    expect(architecture.module_contracts).toMatchObject({ version: 1, data: CONTRACTS });
    expect(architecture.history.module_contracts).toHaveLength(1);
    const workspace = workspaceDirectory(dataDirectory, projectId);
    expect(await gitAt(workspace).raw(['show', 'main:docs/module-contracts.md'])).toContain(
      'listarPaes(): Pao[]',
    );
    expect(await readFile(join(workspace, 'docs/module-map.md'), 'utf8')).toContain(
      '# Module map — version 1',
    );

    // The person accepts both dev handoffs; their kickoffs run one after the other.
    const accepted = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionId}/dev-handoffs/accept`,
    );
    expect(accepted.body.accepted.map((handoff: { to_agent: string }) => handoff.to_agent)).toEqual(
      ['dev:catalogo', 'dev:pedidos'],
    );
    await forja.conversation.idle(sessionId);

    // dev:pedidos read catalogo's contract through the tool (its own argument ignored and said so), waited for
    // its code, read it once merged into its worktree …
    const pedidos = await toolResults(forja, sessionId, 'dev:pedidos');
    expect(pedidos.map((call) => [call.tool, call.ok])).toEqual([
      ['listar_contratos_de_modulos', true],
      ['read_file', true],
      ['write_file', true],
      ['finish_task', false],
      ['write_file', true],
      ['finish_task', true],
      ['finish_task', true],
    ]);
    expect(pedidos[1]!.result).toContain(CATALOGO_CODE.trim());
    // … its first finish_task refused by the module's check, with the exit code and the output's tail …
    expect(pedidos[3]!.result).toContain(
      "finish_task refused: the check `! grep -n '^ \\+export ' src/pedidos.ts` (declared in the module map) failed with exit code 1",
    );
    expect(pedidos[3]!.result).toContain('4:  export const pao = listarPaes()');
    expect(pedidos[5]!.result).toMatch(/^The check .* passed \(exit code 0, \d+ ms\)\. Committed /);
    // … and AT-003, whose work AT-002's commit holds, finished against that commit (ADR 0341).
    expect(pedidos[6]!.result).toMatch(
      /Nothing new to commit: the work of AT-003 is already in [0-9a-f]{12} on dev-pedidos \(committed when AT-002 finished\)/,
    );
    expect(pedidos[0]!.result).toContain('## catalogo (you consume it) — 2 items');
    expect(pedidos[0]!.result).toContain('- [funcao] listarPaes(): Pao[] — Os pães à venda hoje');
    expect(pedidos[0]!.result).toContain('ignored: modulo');
    // … and committed its code on its own branch, in its own worktree.
    const git = gitAt(workspace);
    expect((await git.raw(['log', '-1', '--format=%s', 'dev-pedidos'])).trim()).toBe(
      'AT-002: Cria o pedido com o pão de listarPaes',
    );
    expect(await git.raw(['show', 'dev-pedidos:src/pedidos.ts'])).toBe(PEDIDOS_CODE_FIXED);
    expect(
      await readFile(
        join(worktreeDirectory(dataDirectory, projectId, 'pedidos'), 'src/pedidos.ts'),
        'utf8',
      ),
    ).toBe(PEDIDOS_CODE_FIXED);
    const finished = (await forja.eventLog.read(sessionId, { limit: 10_000 }))
      .filter((event) => event.type === 'dev.task_finished')
      .map((event) => event.payload as { module: string; check: unknown });
    expect(finished.find((payload) => payload.module === 'pedidos')!.check).toEqual({
      command: MAP.modules[1]!.check,
      source: 'declared',
      exit_code: 0,
      duration_ms: expect.any(Number),
    });
    // catalogo's check is the one the map's version 2 declared when its dev blocked on the default one.
    expect(finished.find((payload) => payload.module === 'catalogo')!.check).toMatchObject({
      source: 'declared',
      exit_code: 0,
      command: CATALOGO_CHECK,
    });
    // catalogo merged into dev while pedidos had finished nothing: dev was merged into pedidos' branch in its
    // worktree (ADR 0343), and pedidos' code was committed on that merge, its check run with catalogo's code there.
    const dependency = (await forja.eventLog.read(sessionId, { limit: 10_000 })).find(
      (event) => event.type === 'module.dependency_merged',
    )!;
    expect(dependency.payload).toEqual({
      v: 1,
      module: 'pedidos',
      dependencies: ['catalogo'],
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    expect(
      (await git.raw(['log', '--first-parent', '--format=%H %s', '-2', 'dev-pedidos']))
        .trim()
        .split('\n')
        .map((line) => line.slice(41)),
    ).toEqual([
      'AT-002: Cria o pedido com o pão de listarPaes',
      'Merge dev into dev-pedidos: catalogo merged',
    ]);
    expect((await git.raw(['rev-parse', 'dev-pedidos^'])).trim()).toBe(
      (dependency.payload as { commit: string }).commit,
    );
    expect(
      await readFile(
        join(worktreeDirectory(dataDirectory, projectId, 'pedidos'), 'src/catalogo.ts'),
        'utf8',
      ),
    ).toBe(CATALOGO_CODE);

    // dev:catalogo reported the missing interface instead of writing it; the block reached the Arquiteto's
    // lane, which declared the contracts' version 2; the dev was unblocked, read version 2 and finished.
    const log = await forja.eventLog.read(sessionId, { limit: 10_000 });
    const blocked = log.find((event) => event.type === 'dev.blocked')!;
    const contractsV2 = log.find(
      (event) =>
        event.type === 'artifact.module_contracts' &&
        (event.payload as { data: { version: number } }).data.version === 2,
    )!;
    const unblocked = log.find((event) => event.type === 'dev.unblocked')!;
    expect(blocked).toMatchObject({ payload: { agent: 'dev:catalogo', modulo: 'pedidos' } });
    expect(contractsV2).toMatchObject({ actor: 'arquiteto', payload: { data: CONTRACTS_V2 } });
    expect(unblocked).toMatchObject({
      payload: {
        agent: 'dev:catalogo',
        block_seq: blocked.seq,
        resolution: { kind: 'contracts', version: 2, seq: contractsV2.seq },
      },
    });
    expect(blocked.seq).toBeLessThan(contractsV2.seq);
    expect(contractsV2.seq).toBeLessThan(unblocked.seq);
    const catalogo = await toolResults(forja, sessionId, 'dev:catalogo');
    expect(catalogo.map((call) => [call.tool, call.ok])).toEqual([
      ['listar_contratos_de_modulos', true],
      ['report_blocked', true],
      ['listar_contratos_de_modulos', true],
      ['write_file', true],
      ['report_blocked', true],
      ['finish_task', true],
    ]);
    // Its second block, of kind check, was resolved by the map's version 2 (catalogo's check fixed).
    const checkBlock = log.filter((event) => event.type === 'dev.blocked')[1]!;
    const mapV2 = log.find(
      (event) =>
        event.type === 'artifact.module_map' &&
        (event.payload as { data: { version: number } }).data.version === 2,
    )!;
    expect(checkBlock).toMatchObject({
      payload: {
        agent: 'dev:catalogo',
        kind: 'check',
        modulo: 'catalogo',
        falta: CATALOGO_CHECK_BLOCK,
      },
    });
    expect(mapV2).toMatchObject({ actor: 'arquiteto', payload: { data: MAP_V2 } });
    expect(log.filter((event) => event.type === 'dev.unblocked')[1]).toMatchObject({
      payload: {
        agent: 'dev:catalogo',
        block_seq: checkBlock.seq,
        resolution: { kind: 'module_map', version: 2, seq: mapV2.seq },
      },
    });
    expect(catalogo[2]!.result).toContain('module contracts: version 2');
    expect(await git.raw(['show', 'dev-catalogo:src/catalogo.ts'])).toBe(CATALOGO_CODE);
    expect(
      (await requestJson(forja, 'GET', `/api/projects/${projectId}/architecture`)).body
        .module_contracts,
    ).toMatchObject({ version: 2 });

    const devs = (await requestJson(forja, 'GET', `/api/sessions/${sessionId}/devs`)).body.devs;
    expect(devs).toEqual([
      expect.objectContaining({
        agent: 'dev:catalogo',
        active: true,
        handoff: expect.objectContaining({ status: 'completed' }),
        blocks: [
          expect.objectContaining({
            modulo: 'pedidos',
            falta: expect.stringContaining('PedidoCriado'),
            status: 'unblocked',
            resolution: expect.objectContaining({ kind: 'contracts', version: 2 }),
          }),
          expect.objectContaining({
            kind: 'check',
            modulo: 'catalogo',
            status: 'unblocked',
            resolution: expect.objectContaining({ kind: 'module_map', version: 2 }),
          }),
        ],
        finished: [
          expect.objectContaining({
            task_id: 'AT-001',
            branch: 'dev-catalogo',
            files: ['src/catalogo.ts'],
          }),
        ],
      }),
      expect.objectContaining({
        agent: 'dev:pedidos',
        active: true,
        blocks: [],
        finished: [
          expect.objectContaining({
            task_id: 'AT-002',
            branch: 'dev-pedidos',
            files: ['src/pedidos.ts'],
          }),
          expect.objectContaining({ task_id: 'AT-003', branch: 'dev-pedidos', files: [] }),
        ],
      }),
    ]);
    // AT-003 is recorded against AT-002's commit, the branch's head (it committed nothing).
    expect(devs[1].finished[1].commit).toBe(devs[1].finished[0].commit);
    expect((await git.raw(['rev-parse', 'dev-pedidos'])).trim()).toBe(devs[1].finished[0].commit);

    // Both modules merged into dev in dependency order (catalogo, which pedidos depends on, first), each after
    // the integration check; then the line completed on dev's head.
    const ended = await forja.eventLog.read(sessionId, { limit: 10_000 });
    const merges = ended
      .filter((event) => event.type === 'module.merged')
      .map(
        (event) =>
          event.payload as {
            module: string;
            commit: string;
            checks: Array<{ module: string; exit_code: number }>;
          },
      );
    expect(merges.map((merge) => merge.module)).toEqual(['catalogo', 'pedidos']);
    expect(merges[1]!.checks.map((check) => [check.module, check.exit_code])).toEqual([
      ['catalogo', 0],
      ['pedidos', 0],
    ]);
    const head = (await git.raw(['rev-parse', INTEGRATION_BRANCH])).trim();
    expect(ended.filter((event) => event.type === 'line.completed')).toMatchObject([
      { payload: { commit: head, modules: ['catalogo', 'pedidos'] } },
    ]);
    expect(merges[1]!.commit).toBe(head);
    expect(
      (await git.raw(['log', '--merges', '--first-parent', '--format=%s', INTEGRATION_BRANCH]))
        .trim()
        .split('\n'),
    ).toEqual(['Merge dev-pedidos into dev', 'Merge dev-catalogo into dev']);
    expect(await git.raw(['show', `${INTEGRATION_BRANCH}:src/catalogo.ts`])).toBe(CATALOGO_CODE);
    expect(await git.raw(['show', `${INTEGRATION_BRANCH}:src/pedidos.ts`])).toBe(
      PEDIDOS_CODE_FIXED,
    );
    const lineView = (await requestJson(forja, 'GET', `/api/sessions/${sessionId}/line`)).body;
    expect(lineView).toMatchObject({
      completed: { commit: head },
      modules: [
        { module: 'catalogo', state: 'merged', branch: 'dev-catalogo' },
        {
          module: 'pedidos',
          state: 'merged',
          merged_commit: head,
          last_check: { source: 'declared', exit_code: 0 },
        },
      ],
    });

    const handoffs = (
      await requestJson(forja, 'GET', `/api/sessions/${sessionId}/handoffs`)
    ).body.handoffs.map(
      (handoff: { from_agent: string; to_agent: string; status: string }) =>
        `${handoff.from_agent}→${handoff.to_agent}:${handoff.status}`,
    );
    // Sorted: the table lists rows of one transaction (the two dev handoffs) in no particular order.
    expect(handoffs.sort()).toEqual([
      'arquiteto→dev:catalogo:completed',
      'arquiteto→dev:pedidos:completed',
      'criativo→po:completed',
      'po→arquiteto:completed',
    ]);
    const types = (await forja.eventLog.read(sessionId, { limit: 10_000 })).map(
      (event) => event.type,
    );
    expect(types).not.toContain('toolloop.limit_reached');
    expect(types).not.toContain('turn.failed');
    provider.assertAllTurnsConsumed();
  });

  it('re-opens the work of the second module when both wrote the same path, naming it', {
    timeout: 240_000,
  }, async () => {
    const plain = { ...MAP, modules: MAP.modules.map(({ check: _check, ...module }) => module) };
    const arquiteto = [
      { agent: 'arquiteto', tool_calls: [{ name: 'declare_module_map', arguments: plain }] },
      {
        agent: 'arquiteto',
        tool_calls: [
          {
            name: 'assign_tasks_to_modules',
            arguments: {
              assignments: [
                { task_id: 'AT-001', module: 'catalogo' },
                { task_id: 'AT-002', module: 'pedidos' },
              ],
            },
          },
        ],
      },
      { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
      { agent: 'arquiteto', text: 'Pronto.' },
    ];
    const writes = (module: string, task: string) => [
      {
        agent: `dev:${module}`,
        tool_calls: [
          {
            name: 'write_file',
            arguments: { path: 'src/index.ts', content: `export const dono = '${module}';\n` },
          },
        ],
      },
      {
        agent: `dev:${module}`,
        tool_calls: [
          { name: 'finish_task', arguments: { task_id: task, resumo: `index de ${module}` } },
        ],
      },
      { agent: `dev:${module}`, text: 'Feito.' },
    ];
    const reopened = {
      agent: 'dev:pedidos',
      expect: { system: ['Reaberto: o merge de dev-pedidos em dev deu conflito em src/index.ts'] },
      text: 'Vou mudar o caminho.',
    };
    const line = await startLine(engine, {
      turns: [
        ...UP_TO_ARQUITETO,
        ...arquiteto,
        ...writes('catalogo', 'AT-001'),
        ...writes('pedidos', 'AT-002'),
        reopened,
      ],
    });
    close = line.close;
    const { forja, dataDirectory } = line;
    const { projectId, sessionId } = await playUpToTheDevs(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
    await forja.conversation.idle(sessionId);
    const log = await forja.eventLog.read(sessionId, { limit: 10_000 });
    expect(
      log
        .filter((event) => event.type === 'module.merged')
        .map((event) => (event.payload as { module: string }).module),
    ).toEqual(['catalogo']);
    expect(log.filter((event) => event.type === 'module.merge_failed')).toMatchObject([
      { payload: { module: 'pedidos', kind: 'conflict', paths: ['src/index.ts'] } },
    ]);
    expect(log.map((event) => event.type)).not.toContain('line.completed');
    const git = gitAt(workspaceDirectory(dataDirectory, projectId));
    expect(await git.raw(['show', `${INTEGRATION_BRANCH}:src/index.ts`])).toBe(
      "export const dono = 'catalogo';\n",
    );
    expect((await requestJson(forja, 'GET', `/api/sessions/${sessionId}/line`)).body).toMatchObject(
      {
        completed: null,
        modules: [
          { module: 'catalogo', state: 'merged' },
          {
            module: 'pedidos',
            state: 'conflict',
            failure: { kind: 'conflict', paths: ['src/index.ts'] },
          },
        ],
      },
    );
    line.provider.assertAllTurnsConsumed();
  });

  it('stops the Arquiteto at its ceiling of 14 model calls with toolloop.limit_reached', {
    timeout: 240_000,
  }, async () => {
    const looping = Array.from({ length: 14 }, (_, index) => ({
      agent: 'arquiteto',
      tool_calls: [
        {
          name: 'declare_project_image',
          arguments: { version: index + 1, summary: `Rascunho ${index + 1}` },
        },
      ],
    }));
    const line = await startLine(engine, { turns: [...UP_TO_ARQUITETO, ...looping] });
    close = line.close;
    const { sessionId } = await playUpToTheDevs(line.forja);
    const [last, ended] = (await line.forja.eventLog.read(sessionId, { limit: 10_000 })).slice(-2);
    expect(ended).toMatchObject({ type: 'turn.ended', payload: { outcome: 'limit_reached' } });
    expect(last).toMatchObject({
      type: 'toolloop.limit_reached',
      payload: { agent: 'arquiteto', iterations: 14, ceiling: 14 },
    });
    line.provider.assertAllTurnsConsumed();
  });

  it('runs the kickoffs side by side: a dev waiting for approval of a terminal command holds only its own lane', {
    timeout: 240_000,
  }, async () => {
    const arquiteto = [
      { agent: 'arquiteto', tool_calls: [{ name: 'declare_module_map', arguments: MAP }] },
      { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
      { agent: 'arquiteto', text: 'Sem contratos ainda.' },
    ];
    const devs = [
      {
        agent: 'dev:catalogo',
        tool_calls: [
          { name: 'terminal', arguments: { command: 'echo oi > feito.txt && cat feito.txt' } },
        ],
      },
      { agent: 'dev:catalogo', text: 'Feito.' },
      { agent: 'dev:catalogo', text: 'Sim: o arquivo feito.txt está no worktree.' },
      { agent: 'dev:pedidos', text: 'Começo pelos contratos.' },
    ];
    // Every command waits for the person in `proposed` mode (auto would run this safe one at once).
    const line = await startLine(
      engine,
      { turns: [...UP_TO_ARQUITETO, ...arquiteto, ...devs] },
      {},
      { env: { FORJA_TERMINAL_MODE: 'proposed' } },
    );
    close = line.close;
    const { forja, dataDirectory } = line;
    const { projectId, sessionId } = await playUpToTheDevs(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
    await forja.conversation.idle(sessionId);
    const log = async () => forja.eventLog.read(sessionId, { limit: 10_000 });
    // dev:catalogo waits for the person; dev:pedidos did its kickoff meanwhile.
    const proposed = (await log()).find((event) => event.type === 'action.proposed')!;
    expect(proposed).toMatchObject({
      payload: { agent: 'dev:catalogo', tool: 'terminal', risk: { risky: false, reasons: [] } },
    });
    expect(
      (await log()).filter(
        (event) =>
          event.type === 'agent.response' &&
          (event.payload as { agent: string }).agent === 'dev:pedidos',
      ),
    ).toMatchObject([{ payload: { text: 'Começo pelos contratos.' } }]);
    expect(
      (await forja.conversation.views.load(sessionId)).state.turns_in_progress.map(
        (turn) => turn.agent,
      ),
    ).toEqual(['dev:catalogo']);

    // A message to the waiting lane waits with it, and is answered once its turn ends.
    expect(
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
        text: 'O arquivo ficou no worktree?',
        to: 'dev:catalogo',
      }),
    ).toMatchObject({ status: 201 });
    await forja.conversation.idle(sessionId);
    expect((await log()).at(-1)).toMatchObject({
      type: 'chat.message',
      payload: { to: 'dev:catalogo' },
    });

    expect(
      await requestJson(
        forja,
        'POST',
        `/api/actions/${(proposed.payload as { action_id: string }).action_id}/approve`,
      ),
    ).toMatchObject({ status: 202 });
    await forja.conversation.idle(sessionId);
    const terminal = (await toolResults(forja, sessionId, 'dev:catalogo')).find(
      (call) => call.tool === 'terminal',
    )!;
    expect(terminal.result.split('\n').slice(0, 3)).toEqual([
      '$ echo oi > feito.txt && cat feito.txt',
      'oi',
      '[exit code 0]',
    ]);
    expect(
      await readFile(
        join(worktreeDirectory(dataDirectory, projectId, 'catalogo'), 'feito.txt'),
        'utf8',
      ),
    ).toBe('oi\n');
    const catalogo = (await log()).filter(
      (event) =>
        event.type === 'agent.response' &&
        (event.payload as { agent: string }).agent === 'dev:catalogo' &&
        (event.payload as { tool_calls?: unknown }).tool_calls === undefined,
    );
    expect(catalogo.map((event) => (event.payload as { text: string }).text)).toEqual([
      'Feito.',
      'Sim: o arquivo feito.txt está no worktree.',
    ]);
    line.provider.assertAllTurnsConsumed();
  });
});
