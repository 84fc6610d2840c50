import { afterEach, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../gateway/providers/index.ts';
import { BacklogSchema, SessionLineSchema } from '../http/view-schemas.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';
import { ARQUITETO, UP_TO_ARQUITETO } from './testing/production-line-script.ts';
import { startLine } from './testing/start-line.ts';

/** AT-002 ("Criar pedido", pedidos) straddles both modules: the catalogue must reserve the bread. */
const SPLIT = {
  task_id: 'AT-002',
  parts: [
    {
      module: 'catalogo',
      title: 'Reservar o pão do pedido',
      description: 'Função reservarPao(paoId, quantidade) que baixa a quantidade disponível do dia',
    },
    {
      module: 'pedidos',
      title: 'Criar o pedido com a reserva',
      description: 'Função pedir(paoId, quantidade) que chama reservarPao e guarda o pedido',
      acceptance_criteria: ['o pedido guarda a reserva'],
    },
  ],
};
const BAD_SPLIT = {
  task_id: 'AT-009',
  parts: [{ module: 'estoque', title: 'Baixar', description: 'Baixa o estoque' }],
};
const ASSIGN = ARQUITETO.findIndex((turn) =>
  turn.tool_calls?.some((call) => call.name === 'assign_tasks_to_modules'),
);

/** The line script with the Arquiteto splitting AT-002 after assigning the tasks (a first, wrong call refused). */
const TURNS = [
  ...UP_TO_ARQUITETO,
  ...ARQUITETO.slice(0, ASSIGN + 1),
  {
    agent: 'arquiteto',
    expect: { tools: ['split_task'], system: ['split_task'] },
    tool_calls: [{ name: 'split_task', arguments: BAD_SPLIT }],
  },
  {
    agent: 'arquiteto',
    expect: {
      messages: [
        'split_task refused (2 problems); nothing was recorded.',
        'task_id: AT-009 is not a task of the backlog; tasks: AT-001, AT-002',
        'parts[0].module: "estoque" is not in the current module map (version 1); valid modules: catalogo, pedidos',
      ],
    },
    tool_calls: [{ name: 'split_task', arguments: SPLIT }],
  },
  {
    // The Arquiteto's own backlog follows: the parts, traced to the task, and not the task.
    agent: 'arquiteto',
    expect: {
      messages: ['Split AT-002 into AT-003 → catalogo, AT-004 → pedidos.'],
      system: [
        'AT-003 (HS-002) Reservar o pão do pedido — módulo: catalogo (parte de AT-002)',
        'AT-004 (HS-002) Criar o pedido com a reserva — módulo: pedidos (parte de AT-002)',
      ],
    },
    tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }],
  },
  { agent: 'arquiteto', text: 'Dividi AT-002 entre catalogo e pedidos: aceite os handoffs.' },
  {
    agent: 'dev:catalogo',
    expect: {
      system: [
        '### AT-001 — Listar pães',
        '### AT-003 — Reservar o pão do pedido (história HS-002)',
        'Função reservarPao(paoId, quantidade) que baixa a quantidade disponível do dia',
        // Without criteria of its own, the part keeps the task's.
        '- critério: usa o pão do catálogo',
      ],
    },
    text: 'Faço AT-001 e AT-003.',
  },
  {
    agent: 'dev:pedidos',
    expect: {
      system: [
        '### AT-004 — Criar o pedido com a reserva (história HS-002)',
        'Função pedir(paoId, quantidade) que chama reservarPao e guarda o pedido',
        '- critério: o pedido guarda a reserva',
      ],
    },
    tool_calls: [{ name: 'finish_task', arguments: { task_id: 'AT-002', resumo: 'Pedido' } }],
  },
  {
    agent: 'dev:pedidos',
    expect: {
      messages: [
        'finish_task refused: AT-002 was split by the Arquiteto into AT-003 (catalogo), AT-004 (pedidos); finish the part of your module instead. Nothing was committed.',
      ],
    },
    text: 'AT-002 foi dividida: faço AT-004.',
  },
];

/** After the hand-off: dev:pedidos blocks (kind task) on AT-002; the Arquiteto splits it and answers the block. */
const AFTER_HANDOFF = [
  ...UP_TO_ARQUITETO,
  ...ARQUITETO,
  { agent: 'dev:catalogo', text: 'Começo AT-001.' },
  {
    agent: 'dev:pedidos',
    tool_calls: [
      {
        name: 'report_blocked',
        arguments: {
          kind: 'task',
          modulo: 'catalogo',
          falta: 'AT-002 precisa que catalogo reserve o pão: metade dela é de catalogo',
        },
      },
    ],
  },
  { agent: 'dev:pedidos', text: 'Bloqueado: AT-002 atravessa catalogo.' },
  {
    agent: 'arquiteto',
    expect: { system: ['tipo task) está bloqueado em catalogo', 'divida com split_task'] },
    tool_calls: [{ name: 'split_task', arguments: SPLIT }],
  },
  {
    agent: 'arquiteto',
    tool_calls: [
      {
        name: 'answer_block',
        arguments: { dev: 'dev:pedidos', answer: 'Dividi AT-002: a sua parte é AT-004.' },
      },
    ],
  },
  { agent: 'arquiteto', text: 'AT-002 dividida entre catalogo e pedidos.' },
  {
    // The blocked dev: unblocked, its part in its tasks, the split task gone.
    agent: 'dev:pedidos',
    expect: {
      system: [
        'Desbloqueado',
        'Dividi AT-002: a sua parte é AT-004.',
        '### AT-004 — Criar o pedido com a reserva',
        '- AT-002 — Criar pedido não é mais tarefa do seu módulo',
      ],
    },
    text: 'Faço AT-004.',
  },
  {
    // The dev that was not blocked: a turn of its own, owed because its tasks changed.
    agent: 'dev:catalogo',
    expect: {
      system: [
        'Mudou desde o seu último turno',
        '- tarefa nova do seu módulo: AT-003 — Reservar o pão do pedido (parte de AT-002)',
        '### AT-003 — Reservar o pão do pedido (história HS-002)',
      ],
    },
    text: 'Faço AT-003 também.',
  },
];

describe.each(testDatabaseEngines())(
  'the Arquiteto splits a task between modules, on $name',
  (engine) => {
    let close: (() => Promise<unknown>) | undefined;
    afterEach(async () => {
      await close?.();
      close = undefined;
    });

    it("each dev gets its part in its prompt and not the other's; the backlog and the line follow; a wrong split stores nothing", {
      timeout: 120_000,
    }, async () => {
      const requests: ModelRequest[] = [];
      const line = await startLine(engine, { turns: TURNS }, {}, { requests });
      close = line.close;
      const { forja, provider } = line;
      const { projectId, sessionId } = await playUpToTheDevs(forja);
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
      await forja.conversation.idle(sessionId);

      const log = await forja.eventLog.read(sessionId, { limit: 10_000 });
      expect(
        log.filter(
          (event) => event.type === 'turn.failed' || event.type === 'toolloop.limit_reached',
        ),
      ).toEqual([]);
      provider.assertAllTurnsConsumed();

      // Each dev was told its part only: the other module's part and the split task never reached it.
      const systemsOf = (agent: string) =>
        requests.filter((request) => request.agent === agent).map((request) => request.system);
      expect(systemsOf('dev:catalogo').length).toBeGreaterThan(0);
      expect(systemsOf('dev:pedidos').length).toBeGreaterThan(0);
      for (const system of systemsOf('dev:catalogo')) {
        expect(system).not.toContain('Criar o pedido com a reserva');
        expect(system).not.toContain('### AT-002');
      }
      for (const system of systemsOf('dev:pedidos')) {
        expect(system).not.toContain('Reservar o pão do pedido');
        expect(system).not.toContain('### AT-002');
      }

      // Recorded like every task: the task with split_into, each part with a new id and split_from.
      const splits = log.filter(
        (event) =>
          event.type === 'tool.completed' &&
          (event.payload as { tool: string }).tool === 'split_task',
      );
      expect(splits.map((event) => (event.payload as { ok: boolean }).ok)).toEqual([false, true]);
      const tasks = log.filter(
        (event) => event.type === 'artifact.task' && event.actor === 'arquiteto',
      );
      expect(tasks.map((event) => (event.payload as { data: unknown }).data)).toEqual([
        expect.objectContaining({ id: 'AT-001', module: 'catalogo' }),
        expect.objectContaining({ id: 'AT-002', module: 'pedidos' }),
        expect.objectContaining({ id: 'AT-002', split_into: ['AT-003', 'AT-004'] }),
        expect.objectContaining({ id: 'AT-003', module: 'catalogo', split_from: 'AT-002' }),
        expect.objectContaining({ id: 'AT-004', module: 'pedidos', split_from: 'AT-002' }),
      ]);

      const backlog = BacklogSchema.parse(
        (await requestJson(forja, 'GET', `/api/projects/${projectId}/backlog`)).body,
      );
      expect(backlog.tasks.map((task) => [task.id, task.module, task.split_from])).toEqual([
        ['AT-001', 'catalogo', undefined],
        ['AT-003', 'catalogo', 'AT-002'],
        ['AT-004', 'pedidos', 'AT-002'],
      ]);
      expect(backlog.split).toEqual([
        expect.objectContaining({ id: 'AT-002', split_into: ['AT-003', 'AT-004'] }),
      ]);
      const lineView = SessionLineSchema.parse(
        (await requestJson(forja, 'GET', `/api/sessions/${sessionId}/line`)).body,
      );
      expect(lineView.modules.map((module) => [module.module, module.tasks])).toEqual([
        ['catalogo', ['AT-001', 'AT-003']],
        ['pedidos', ['AT-004']],
      ]);
    });

    it('a split after the hand-off gives each dev whose tasks changed a turn saying so, the blocked one with its answer', {
      timeout: 120_000,
    }, async () => {
      const line = await startLine(engine, { turns: AFTER_HANDOFF });
      close = line.close;
      const { forja, provider } = line;
      const { sessionId } = await playUpToTheDevs(forja);
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
      await forja.conversation.idle(sessionId);
      const log = await forja.eventLog.read(sessionId, { limit: 10_000 });
      expect(
        log.filter(
          (event) => event.type === 'turn.failed' || event.type === 'toolloop.limit_reached',
        ),
      ).toEqual([]);
      provider.assertAllTurnsConsumed();
      const starts = (agent: string) =>
        log.filter(
          (event) =>
            event.type === 'turn.started' && (event.payload as { agent: string }).agent === agent,
        ).length;
      expect([starts('dev:catalogo'), starts('dev:pedidos')]).toEqual([2, 2]);
    });
  },
);
