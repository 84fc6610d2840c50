import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { ARTIFACT_PAYLOAD_VERSION, artifactEvent } from '../domain/artifacts/index.ts';
import { LINE_EVENTS } from '../domain/line/index.ts';
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
import { gitAt, workspaceDirectory } from '../workspace/index.ts';

type Turn = ScriptInput['turns'][number];

/** catalogo's contracts with the delivery deadline a real line moved from 18:00 to 20:00. */
const deadline = (version: number, hour: string) => ({
  version,
  contratos: [
    {
      modulo: 'catalogo',
      expoe: [
        ...CONTRACTS.contratos[0]!.expoe,
        {
          tipo: 'dado',
          assinatura: `PRAZO_ENTREGA = "${hour}"`,
          descricao: 'Hora limite do pedido do dia',
        },
      ],
    },
    CONTRACTS.contratos[1]!,
  ],
});
const V1 = deadline(1, '18:00');
const V2 = deadline(2, '20:00');
const MAP_V2 = {
  ...MAP,
  version: 2,
  modules: MAP.modules.map((module) =>
    module.name === 'pedidos' ? { ...module, check: 'node --test' } : module,
  ),
};

/** The line's Arquiteto, declaring V1 where the script declares its corrected contracts. */
const ARQUITETO_V1: Turn[] = ARQUITETO.map((turn) =>
  turn.tool_calls?.[0]?.name === 'declare_module_contracts' && turn.text === 'Corrijo os contratos.'
    ? { ...turn, tool_calls: [{ name: 'declare_module_contracts', arguments: V1 }] }
    : turn,
);

const KICKOFFS: Turn[] = [
  { agent: 'dev:catalogo', text: 'Começo pelo catálogo.' },
  { agent: 'dev:pedidos', text: 'Começo pelos pedidos.' },
];

/** The turns each dev is owed once V2 (and the map's v2) is declared: the request must carry what changed. */
const NOTICES: Turn[] = [
  {
    agent: 'dev:catalogo',
    expect: {
      system: [
        'Mudou desde o seu último turno',
        'contratos na versão 2',
        'catalogo (seu módulo), alterado: agora [dado] PRAZO_ENTREGA = "20:00" — Hora limite do pedido do dia (antes: [dado] PRAZO_ENTREGA = "18:00"',
      ],
    },
    text: 'O prazo agora é 20:00.',
  },
  {
    agent: 'dev:pedidos',
    expect: {
      system: [
        'Mudou desde o seu último turno',
        'catalogo (você consome), alterado: agora [dado] PRAZO_ENTREGA = "20:00"',
        '(antes: [dado] PRAZO_ENTREGA = "18:00"',
        "- check do seu módulo pedidos: agora `node --test` (antes: `! grep -n '^ \\+export ' src/pedidos.ts`)",
      ],
    },
    text: 'Uso o prazo das 20:00 e o check novo.',
  },
];

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

const failures = async (forja: Forja, sessionId: string) =>
  (await forja.eventLog.read(sessionId, { limit: 10_000 }))
    .filter((event) => event.type === 'turn.failed' || event.type === 'toolloop.limit_reached')
    .map((event) => JSON.stringify(event.payload));

const turnsOf = async (forja: Forja, sessionId: string, agent: string) =>
  (await forja.eventLog.read(sessionId, { limit: 10_000 })).filter(
    (event) =>
      event.type === 'turn.started' && (event.payload as { agent: string }).agent === agent,
  ).length;

describe.each(testDatabaseEngines())(
  'every change reaches whoever it affects, on $name',
  (engine) => {
    let close: (() => Promise<unknown>) | undefined;
    afterEach(async () => {
      await close?.();
      close = undefined;
    });

    it('a new contracts version gives every dev whose own or consumed contracts changed a turn saying what, with the new text; a changed check too; once each', {
      timeout: 120_000,
    }, async () => {
      const line = await startLine(engine, {
        turns: [
          ...UP_TO_ARQUITETO,
          ...ARQUITETO_V1,
          ...KICKOFFS,
          {
            agent: 'arquiteto',
            tool_calls: [
              { name: 'declare_module_contracts', arguments: V2 },
              { name: 'declare_module_map', arguments: MAP_V2 },
            ],
          },
          { agent: 'arquiteto', text: 'Contratos v2 (prazo às 20:00) e mapa v2.' },
          ...NOTICES,
        ],
      });
      close = line.close;
      const { forja, provider } = line;
      const { sessionId } = await playUpToTheDevs(forja);
      await acceptDev(forja, sessionId, 'catalogo');
      await acceptDev(forja, sessionId, 'pedidos');
      // Neither dev is blocked: the person tells the Arquiteto, whose new versions must reach both.
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
        text: 'O prazo de entrega passou para 20:00.',
        to: 'arquiteto',
      });
      await forja.conversation.idle(sessionId);
      expect(await failures(forja, sessionId)).toEqual([]);
      provider.assertAllTurnsConsumed();
      expect(await turnsOf(forja, sessionId, 'dev:catalogo')).toBe(2);
      expect(await turnsOf(forja, sessionId, 'dev:pedidos')).toBe(2);
    });

    it('a dev at work when the version comes (waiting for the person) is told after its current turn, once', {
      timeout: 120_000,
    }, async () => {
      const line = await startLine(
        engine,
        {
          turns: [
            ...UP_TO_ARQUITETO,
            ...ARQUITETO_V1,
            {
              agent: 'dev:pedidos',
              tool_calls: [{ name: 'terminal', arguments: { command: 'echo oi' } }],
            },
            { agent: 'dev:pedidos', expect: { messages: ['[exit code 0]'] }, text: 'Feito.' },
            {
              agent: 'arquiteto',
              tool_calls: [{ name: 'declare_module_contracts', arguments: V2 }],
            },
            { agent: 'arquiteto', text: 'Contratos v2: prazo às 20:00.' },
            {
              agent: 'dev:pedidos',
              expect: {
                system: [
                  'Mudou desde o seu último turno',
                  'catalogo (você consome), alterado: agora [dado] PRAZO_ENTREGA = "20:00"',
                ],
              },
              text: 'Uso o prazo das 20:00.',
            },
          ],
        },
        {},
        { env: { FORJA_TERMINAL_MODE: 'proposed' } },
      );
      close = line.close;
      const { forja, provider } = line;
      const { sessionId } = await playUpToTheDevs(forja);
      await acceptDev(forja, sessionId, 'pedidos');
      const log = () => forja.eventLog.read(sessionId, { limit: 10_000 });
      const proposed = (await log()).find((event) => event.type === 'action.proposed')!;
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
        text: 'O prazo de entrega passou para 20:00.',
        to: 'arquiteto',
      });
      await forja.conversation.idle(sessionId);
      // Still waiting for the person: its turn is not cut short, and no second turn is started beside it.
      expect(await turnsOf(forja, sessionId, 'dev:pedidos')).toBe(1);
      await requestJson(
        forja,
        'POST',
        `/api/actions/${(proposed.payload as { action_id: string }).action_id}/approve`,
      );
      await forja.conversation.idle(sessionId);
      expect(await failures(forja, sessionId)).toEqual([]);
      provider.assertAllTurnsConsumed();
      const pedidos = (await log()).filter(
        (event) => (event.payload as { agent?: string }).agent === 'dev:pedidos',
      );
      expect(
        pedidos
          .filter((event) => event.type === 'turn.started' || event.type === 'agent.response')
          .map((event) => [event.type, (event.payload as { text?: string }).text ?? null]),
      ).toEqual([
        ['turn.started', null],
        ['agent.response', ''],
        ['agent.response', 'Feito.'],
        ['turn.started', null],
        ['agent.response', 'Uso o prazo das 20:00.'],
      ]);
    });

    it('a restart between the new version and the devs’ turns: start-up gives each dev its turn, with what changed, once', {
      timeout: 120_000,
    }, async () => {
      const database = await engine.open();
      close = () => database.close();
      const before = await startLine(
        engine,
        { turns: [...UP_TO_ARQUITETO, ...ARQUITETO_V1, ...KICKOFFS] },
        {},
        { database },
      );
      const { sessionId } = await playUpToTheDevs(before.forja);
      await acceptDev(before.forja, sessionId, 'catalogo');
      await acceptDev(before.forja, sessionId, 'pedidos');
      // What a process that stopped right after recording the Arquiteto's declarations leaves: no dev turn.
      const appended = await before.forja.eventLog.append(sessionId, [
        artifactEvent('module_contracts', 'arquiteto', { v: ARTIFACT_PAYLOAD_VERSION, data: V2 }),
        artifactEvent('module_map', 'arquiteto', { v: ARTIFACT_PAYLOAD_VERSION, data: MAP_V2 }),
      ]);
      expect(appended.success).toBe(true);
      await before.close();

      const after = await startLine(engine, { turns: NOTICES }, {}, { database });
      close = async () => (await after.close(), await database.close());
      const resumed = await after.forja.conversation.resumeInterruptedTurns();
      expect(resumed.map((turn) => turn.agent).sort()).toEqual(['dev:catalogo', 'dev:pedidos']);
      expect((await Promise.all(resumed.map((turn) => turn.result))).map((r) => r.status)).toEqual([
        'completed',
        'completed',
      ]);
      await after.forja.conversation.idle(sessionId);
      expect(await failures(after.forja, sessionId)).toEqual([]);
      after.provider.assertAllTurnsConsumed();
      // Told once: a second start-up owes nothing.
      expect(await after.forja.conversation.resumeInterruptedTurns()).toEqual([]);
    });

    it('finish_task records a task whose work an earlier task already committed against that commit, and refuses a task finished twice with the reason', {
      timeout: 120_000,
    }, async () => {
      // Both tasks in catalogo: a real model implements them in one go and finishes them one after the other.
      const arquiteto = ARQUITETO.map((turn) =>
        turn.tool_calls?.[0]?.name === 'assign_tasks_to_modules'
          ? {
              ...turn,
              tool_calls: [
                {
                  name: 'assign_tasks_to_modules',
                  arguments: {
                    assignments: [
                      { task_id: 'AT-001', module: 'catalogo' },
                      { task_id: 'AT-002', module: 'catalogo' },
                    ],
                  },
                },
              ],
            }
          : turn,
      );
      const finish = (task_id: string) => ({
        name: 'finish_task',
        arguments: { task_id, resumo: `Feita ${task_id}` },
      });
      const line = await startLine(engine, {
        turns: [
          ...UP_TO_ARQUITETO,
          ...arquiteto,
          {
            agent: 'dev:catalogo',
            tool_calls: [
              {
                name: 'write_file',
                arguments: { path: 'src/catalogo.ts', content: CATALOGO_CODE },
              },
            ],
          },
          { agent: 'dev:catalogo', tool_calls: [finish('AT-001')] },
          {
            agent: 'dev:catalogo',
            expect: { messages: ['Committed '] },
            tool_calls: [finish('AT-002')],
          },
          {
            agent: 'dev:catalogo',
            expect: {
              messages: [
                'Nothing new to commit: the work of AT-002 is already in',
                '(committed when AT-001 finished); AT-002 is recorded as finished against that commit',
              ],
            },
            tool_calls: [finish('AT-001')],
          },
          {
            agent: 'dev:catalogo',
            expect: {
              messages: [
                'finish_task refused: AT-001 is already finished — committed',
                'A task is finished once; nothing was committed',
              ],
            },
            text: 'AT-001 e AT-002 feitas.',
          },
        ],
      });
      close = line.close;
      const { forja, provider } = line;
      const { sessionId } = await playUpToTheDevs(forja);
      await acceptDev(forja, sessionId, 'catalogo');
      expect(await failures(forja, sessionId)).toEqual([]);
      provider.assertAllTurnsConsumed();
      const finished = (await forja.eventLog.read(sessionId, { limit: 10_000 }))
        .filter((event) => event.type === 'dev.task_finished')
        .map((event) => event.payload as { task_id: string; commit: string; files: string[] });
      expect(finished).toMatchObject([
        { task_id: 'AT-001', files: ['src/catalogo.ts'] },
        { task_id: 'AT-002', files: [], already_committed: true, commit: finished[0]!.commit },
      ]);
    });

    it('a check whose output reports skipped tests passes, and the dev and the log are told how many were skipped', {
      timeout: 120_000,
    }, async () => {
      const arquiteto = ARQUITETO.map((turn) =>
        turn.tool_calls?.[0]?.name === 'declare_module_map'
          ? {
              ...turn,
              tool_calls: [
                {
                  name: 'declare_module_map',
                  arguments: {
                    ...MAP,
                    modules: MAP.modules.map((module) =>
                      module.name === 'catalogo' ? { ...module, check: 'node --test' } : module,
                    ),
                  },
                },
              ],
            }
          : turn,
      );
      // The test that needs pedidos' code skips while it is missing: the check passes, having checked nothing of it.
      const tests = [
        "const test = require('node:test');",
        "test('lista os pães', () => {});",
        "test.skip('o pedido usa o pão do catálogo (pedidos ainda não existe)', () => {});",
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
              { name: 'finish_task', arguments: { task_id: 'AT-001', resumo: 'Lista os pães' } },
            ],
          },
          {
            agent: 'dev:catalogo',
            expect: {
              messages: [
                'passed (exit code 0',
                'with 1 test skipped — a skipped test checks nothing',
              ],
            },
            text: 'AT-001 feita; um teste fica pulado até pedidos existir.',
          },
        ],
      });
      close = line.close;
      const { forja, provider } = line;
      const { sessionId } = await playUpToTheDevs(forja);
      await acceptDev(forja, sessionId, 'catalogo');
      expect(await failures(forja, sessionId)).toEqual([]);
      provider.assertAllTurnsConsumed();
      const finished = (await forja.eventLog.read(sessionId, { limit: 10_000 })).find(
        (event) => event.type === 'dev.task_finished',
      );
      expect(finished?.payload).toMatchObject({
        task_id: 'AT-001',
        check: { command: 'node --test', exit_code: 0, skipped: 1 },
      });
    });

    it("when a module merges into dev, a dev whose module depends on it gets dev merged into its branch and a turn saying the dependency's code is in its worktree", {
      timeout: 120_000,
    }, async () => {
      const line = await startLine(engine, {
        turns: [
          ...UP_TO_ARQUITETO,
          ...ARQUITETO_V1,
          { agent: 'dev:pedidos', text: 'Espero o código do catálogo.' },
          {
            agent: 'dev:catalogo',
            tool_calls: [
              {
                name: 'write_file',
                arguments: { path: 'src/catalogo.ts', content: CATALOGO_CODE },
              },
            ],
          },
          {
            agent: 'dev:catalogo',
            tool_calls: [
              { name: 'finish_task', arguments: { task_id: 'AT-001', resumo: 'Lista os pães' } },
            ],
          },
          { agent: 'dev:catalogo', text: 'AT-001 feita.' },
          {
            agent: 'dev:pedidos',
            expect: {
              system: [
                'Dependências integradas:',
                'O código de catalogo (que o seu módulo usa) foi integrado em dev, e dev foi mesclado no seu branch dev-pedidos',
                'esse código está agora no seu worktree',
              ],
            },
            tool_calls: [{ name: 'read_file', arguments: { path: 'src/catalogo.ts' } }],
          },
          {
            agent: 'dev:pedidos',
            expect: { messages: ['export function listarPaes(): Pao[]'] },
            text: 'O catálogo está no meu worktree: uso listarPaes.',
          },
        ],
      });
      close = line.close;
      const { forja, provider, dataDirectory } = line;
      const { projectId, sessionId } = await playUpToTheDevs(forja);
      await acceptDev(forja, sessionId, 'pedidos');
      await acceptDev(forja, sessionId, 'catalogo');
      expect(await failures(forja, sessionId)).toEqual([]);
      provider.assertAllTurnsConsumed();
      const log = await forja.eventLog.read(sessionId, { limit: 10_000 });
      const update = log.find((event) => event.type === 'module.dependency_merged');
      expect(update?.payload).toMatchObject({ module: 'pedidos', dependencies: ['catalogo'] });
      const git = gitAt(workspaceDirectory(dataDirectory, projectId));
      expect(await git.raw(['show', 'dev-pedidos:src/catalogo.ts'])).toBe(CATALOGO_CODE);
      expect((await git.raw(['rev-parse', 'dev-pedidos'])).trim()).toBe(
        (update!.payload as { commit: string }).commit,
      );
      // A real merge commit on the dependent's branch, never a force: its first parent is where it was.
      expect(
        (await git.raw(['log', '-1', '--format=%P', 'dev-pedidos'])).trim().split(' '),
      ).toHaveLength(2);
    });

    it("a restart between a dependency's merge into a dev's branch and the dev's turn: start-up gives that turn once", {
      timeout: 120_000,
    }, async () => {
      const database = await engine.open();
      close = () => database.close();
      const before = await startLine(
        engine,
        { turns: [...UP_TO_ARQUITETO, ...ARQUITETO_V1, KICKOFFS[1]!] },
        {},
        { database },
      );
      const { sessionId } = await playUpToTheDevs(before.forja);
      await acceptDev(before.forja, sessionId, 'pedidos');
      // What a process that stopped right after recording the dependency's merge leaves: no dev turn.
      const appended = await before.forja.eventLog.append(sessionId, [
        LINE_EVENTS.moduleDependencyMerged.create('system', {
          v: 1,
          module: 'pedidos',
          dependencies: ['catalogo'],
          commit: '0123456789abcdef0123456789abcdef01234567',
        }),
      ]);
      expect(appended.success).toBe(true);
      await before.close();

      const after = await startLine(
        engine,
        {
          turns: [
            {
              agent: 'dev:pedidos',
              expect: {
                system: [
                  'O código de catalogo (que o seu módulo usa) foi integrado em dev',
                  'commit 0123456789ab',
                ],
              },
              text: 'Uso o catálogo.',
            },
          ],
        },
        {},
        { database },
      );
      close = async () => (await after.close(), await database.close());
      const resumed = await after.forja.conversation.resumeInterruptedTurns();
      expect(resumed.map((turn) => turn.agent)).toEqual(['dev:pedidos']);
      expect((await Promise.all(resumed.map((turn) => turn.result))).map((r) => r.status)).toEqual([
        'completed',
      ]);
      await after.forja.conversation.idle(sessionId);
      expect(await failures(after.forja, sessionId)).toEqual([]);
      after.provider.assertAllTurnsConsumed();
      expect(await after.forja.conversation.resumeInterruptedTurns()).toEqual([]);
    });
  },
);
