import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import type { ScriptInput } from '../gateway/providers/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';
import {
  ARQUITETO,
  CATALOGO_CODE,
  CONTRACTS,
  MAP,
  UP_TO_ARQUITETO,
} from './testing/production-line-script.ts';
import { startLine } from './testing/start-line.ts';

type Turn = ScriptInput['turns'][number];

/** The Arquiteto's turns of the line script, with what its calls must carry added to the nth call's `expect`. */
const arquitetoExpecting = (expected: Record<number, string[]>): Turn[] =>
  ARQUITETO.map((turn, index) =>
    expected[index] === undefined
      ? turn
      : {
          ...turn,
          expect: { ...turn.expect, system: [...(turn.expect?.system ?? []), ...expected[index]] },
        },
  );

/** The version of node a command in the sandbox meets (the sandbox shows the host's /usr read-only). */
const NODE_VERSION = execFileSync('node', ['--version'], {
  env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
  encoding: 'utf8',
}).trim();

/** The check a real model wrote on a 7-module line: git has no repository in the sandbox, so cd fails. */
const GIT_CHECK = 'cd "$(git rev-parse --show-toplevel)/packages/catalogo" && node --test';
const mapWithCatalogoCheck = (version: number, check: string) => ({
  ...MAP,
  version,
  modules: MAP.modules.map((module) =>
    module.name === 'catalogo' ? { ...module, check } : module,
  ),
});

/** Accepts the handoff to `dev:<module>` and waits for its kickoff to end. */
async function acceptDev(forja: Forja, sessionId: string, module: string): Promise<void> {
  const { handoffs } = (await requestJson(forja, 'GET', `/api/sessions/${sessionId}/handoffs`))
    .body as { handoffs: Array<{ id: string; to_agent: string; status: string }> };
  const handoff = handoffs.find(
    (candidate) => candidate.to_agent === `dev:${module}` && candidate.status === 'offered',
  );
  if (handoff === undefined) throw new Error(`no handoff offered to dev:${module}`);
  await requestJson(forja, 'POST', `/api/handoffs/${handoff.id}/accept`);
  await forja.conversation.idle(sessionId);
}

/** Every failed turn's message: a scripted call that did not carry what its turn expects ends there. */
const failures = async (forja: Forja, sessionId: string) =>
  (await forja.eventLog.read(sessionId, { limit: 10_000 }))
    .filter((event) => event.type === 'turn.failed' || event.type === 'toolloop.limit_reached')
    .map((event) => JSON.stringify(event.payload));

describe.each(testDatabaseEngines())('what each agent of the line is told, on $name', (engine) => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it("the Arquiteto reads the whole backlog with the PO's descriptions and its contracts with descricao; a dev its epic, its stories' criteria and its tasks", {
    timeout: 120_000,
  }, async () => {
    const line = await startLine(engine, {
      turns: [
        ...UP_TO_ARQUITETO,
        ...arquitetoExpecting({
          // The epic's, the story's and the task's descriptions, where the PO wrote its decisions.
          0: [
            'A pessoa assina e recebe pão cedo',
            'A pessoa vê o catálogo',
            'Função que lista os pães',
            '- critério: lista os pães com preço',
          ],
          // After the contracts: its own view keeps `descricao`.
          6: ['- [funcao] listarPaes(): Pao[] — Os pães à venda hoje'],
        }),
        {
          agent: 'dev:catalogo',
          expect: {
            system: [
              '### Épico EP-001 — Assinatura de pão',
              'A pessoa assina e recebe pão cedo',
              '### História HS-001 — Ver os pães',
              '- critério da história: lista os pães com preço',
              '### AT-001 — Listar pães',
              'Função que lista os pães',
              '- critério: devolve os pães do dia',
            ],
          },
          text: 'Li a tarefa e a história.',
        },
      ],
    });
    close = line.close;
    const { forja, provider } = line;
    const { sessionId } = await playUpToTheDevs(forja);
    await acceptDev(forja, sessionId, 'catalogo');
    expect(await failures(forja, sessionId)).toEqual([]);
    provider.assertAllTurnsConsumed();
  });

  it('the Arquiteto and a dev are told where check and terminal run; a check broken by the map is refused to the dev and routed to the Arquiteto, whose new map unblocks the dev', {
    timeout: 120_000,
  }, async () => {
    const sandbox = [
      '## Onde check e terminal rodam',
      '/bin/sh -c na raiz do worktree do módulo',
      `node ${NODE_VERSION}`,
      'Sem rede',
      'git não está disponível dentro do sandbox',
    ];
    const arquiteto = arquitetoExpecting({ 0: sandbox });
    arquiteto[1] = {
      agent: 'arquiteto',
      tool_calls: [{ name: 'declare_module_map', arguments: mapWithCatalogoCheck(1, GIT_CHECK) }],
    };
    const finish = {
      name: 'finish_task',
      arguments: { task_id: 'AT-001', resumo: 'Lista os pães do dia' },
    };
    const line = await startLine(engine, {
      turns: [
        ...UP_TO_ARQUITETO,
        ...arquiteto,
        {
          agent: 'dev:catalogo',
          expect: {
            system: [...sandbox, `Check (finish_task o roda, declarado no mapa): ${GIT_CHECK}`],
          },
          tool_calls: [
            { name: 'write_file', arguments: { path: 'src/catalogo.ts', content: CATALOGO_CODE } },
          ],
        },
        { agent: 'dev:catalogo', tool_calls: [finish] },
        {
          agent: 'dev:catalogo',
          expect: {
            messages: [
              'finish_task refused: the check',
              "This is a problem of the module map's check, not of your code: the check cannot cd",
              'reported to the Arquiteto as a block of kind check',
            ],
          },
          text: 'O check do mapa está quebrado; avisei o Arquiteto.',
        },
        {
          agent: 'arquiteto',
          expect: {
            system: [
              'dev:catalogo (módulo catalogo',
              'tipo check) está bloqueado em catalogo: o check do módulo catalogo está quebrado pelo mapa',
              "can't cd to /packages/catalogo",
              'resolva com declare_module_map',
            ],
          },
          tool_calls: [
            {
              name: 'declare_module_map',
              arguments: mapWithCatalogoCheck(2, 'test -f src/catalogo.ts'),
            },
          ],
        },
        { agent: 'arquiteto', text: 'Mapa na versão 2: o check de catalogo roda na raiz.' },
        {
          agent: 'dev:catalogo',
          expect: {
            system: [
              'Check (finish_task o roda, declarado no mapa): test -f src/catalogo.ts',
              'Desbloqueado',
              'mapa de módulos na versão 2',
              'chame finish_task de novo',
            ],
          },
          tool_calls: [finish],
        },
        {
          agent: 'dev:catalogo',
          expect: { messages: ['passed (exit code 0'] },
          text: 'AT-001 feita.',
        },
      ],
    });
    close = line.close;
    const { forja, provider } = line;
    const { sessionId } = await playUpToTheDevs(forja);
    await acceptDev(forja, sessionId, 'catalogo');
    expect(await failures(forja, sessionId)).toEqual([]);
    provider.assertAllTurnsConsumed();
    const log = await forja.eventLog.read(sessionId, { limit: 10_000 });
    expect(log.filter((event) => event.type === 'dev.blocked')).toMatchObject([
      { payload: { agent: 'dev:catalogo', modulo: 'catalogo', kind: 'check' } },
    ]);
    expect(log.filter((event) => event.type === 'dev.unblocked')).toMatchObject([
      { payload: { resolution: { kind: 'module_map', version: 2 } } },
    ]);
  });

  it('a failing check shows the dev the failing test and its diagnostics, not only the totals below it', {
    timeout: 120_000,
  }, async () => {
    const arquiteto = [...ARQUITETO];
    arquiteto[1] = {
      agent: 'arquiteto',
      tool_calls: [
        { name: 'declare_module_map', arguments: mapWithCatalogoCheck(1, 'node --test') },
      ],
    };
    // One failing test, then forty passing ones: node --test prints the failure far above its totals.
    const tests = [
      "const test = require('node:test');",
      "const assert = require('node:assert');",
      "test('lista os pães com preço', () => assert.strictEqual(1, 2, 'esperava 2 pães'));",
      ...Array.from({ length: 40 }, (_, index) => `test('passa ${index}', () => {});`),
    ].join('\n');
    const line = await startLine(engine, {
      turns: [
        ...UP_TO_ARQUITETO,
        ...arquiteto,
        {
          agent: 'dev:catalogo',
          tool_calls: [
            { name: 'write_file', arguments: { path: 'test/catalogo.test.js', content: tests } },
          ],
        },
        {
          agent: 'dev:catalogo',
          tool_calls: [
            {
              name: 'finish_task',
              arguments: { task_id: 'AT-001', resumo: 'Lista os pães do dia' },
            },
          ],
        },
        {
          agent: 'dev:catalogo',
          expect: {
            messages: [
              'finish_task refused: the check `node --test`',
              'failed with exit code 1',
              'lista os pães com preço',
              'esperava 2 pães',
              'passa 39',
            ],
          },
          text: 'O teste de preço falha: corrijo.',
        },
      ],
    });
    close = line.close;
    const { forja, provider } = line;
    const { sessionId } = await playUpToTheDevs(forja);
    await acceptDev(forja, sessionId, 'catalogo');
    expect(await failures(forja, sessionId)).toEqual([]);
    provider.assertAllTurnsConsumed();
  });

  it('a block of kind task is answered with what will happen, reaches the Arquiteto as such, and a new module map (not contracts) resolves it', {
    timeout: 120_000,
  }, async () => {
    const line = await startLine(engine, {
      turns: [
        ...UP_TO_ARQUITETO,
        ...ARQUITETO,
        {
          agent: 'dev:catalogo',
          expect: { tools: ['report_blocked'] },
          tool_calls: [
            {
              name: 'report_blocked',
              arguments: {
                kind: 'task',
                modulo: 'pedidos',
                falta: 'AT-001 pede o preço do dia, que é regra de pedidos',
              },
            },
          ],
        },
        {
          agent: 'dev:catalogo',
          expect: {
            messages: [
              'report_blocked(',
              'tool: Recorded: blocked (task) on pedidos',
              'The Arquiteto redraws the module map in a new version',
              'You get a turn when it is resolved',
            ],
          },
          text: 'Bloqueado: a tarefa é de pedidos.',
        },
        {
          agent: 'arquiteto',
          expect: {
            system: [
              'dev:catalogo (módulo catalogo',
              'tipo task) está bloqueado em pedidos: tarefa ou fronteira de módulo errada',
              'resolva com declare_module_map',
            ],
          },
          // Contracts do not resolve a task block: the block stays open until the new map.
          tool_calls: [
            {
              name: 'declare_module_contracts',
              arguments: { ...CONTRACTS, version: 2 },
            },
          ],
        },
        {
          agent: 'arquiteto',
          tool_calls: [
            {
              name: 'declare_module_map',
              arguments: {
                ...MAP,
                version: 2,
                modules: MAP.modules.map((module) =>
                  module.name === 'catalogo'
                    ? {
                        ...module,
                        responsibility: 'Os pães à venda; o preço do dia vem de pedidos',
                      }
                    : module,
                ),
              },
            },
          ],
        },
        { agent: 'arquiteto', text: 'Mapa na versão 2.' },
        {
          agent: 'dev:catalogo',
          expect: {
            system: [
              'Os pães à venda; o preço do dia vem de pedidos',
              'Desbloqueado',
              'mapa de módulos na versão 2',
            ],
          },
          text: 'Sigo com o mapa novo.',
        },
      ],
    });
    close = line.close;
    const { forja, provider } = line;
    const { sessionId } = await playUpToTheDevs(forja);
    await acceptDev(forja, sessionId, 'catalogo');
    expect(await failures(forja, sessionId)).toEqual([]);
    provider.assertAllTurnsConsumed();
    const log = await forja.eventLog.read(sessionId, { limit: 10_000 });
    expect(log.filter((event) => event.type === 'dev.unblocked')).toMatchObject([
      { payload: { resolution: { kind: 'module_map', version: 2 } } },
    ]);
  });
});
