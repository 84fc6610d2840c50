import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rehydrate } from '../../domain/conversation/index.ts';
import { TRUNCATION_MARKER } from '../../harness/index.ts';
import type { Database } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { devAgent } from '../dev/dev-agent.ts';
import { openLineFixture, type LineFixture } from '../dev/test-support/line-fixture.ts';
import { poAgent } from '../po/po-agent.ts';
import type { LoopAgent } from '../runtime/tool-loop.ts';
import { arquitetoAgent } from './arquiteto-agent.ts';

const BRIEF = {
  title: 'Padaria do amanhecer',
  summary: 'Pão por assinatura.',
  problem: 'Sem pão cedo.',
  audience: 'Vizinhos',
  goals: ['Entregar antes das 6h'],
  business_rule_refs: [],
  out_of_scope: [],
  open_questions: [],
};

describe.each(testDatabaseEngines())(
  'the line agents build their prompts through the harness on $name',
  (engine) => {
    let database: Database;
    let fixture: LineFixture;
    beforeAll(async () => (database = await engine.open()));
    afterAll(() => database.close());
    beforeEach(async () => {
      fixture = await openLineFixture(engine, { database });
      await fixture.record([
        { type: 'artifact.product_brief', actor: 'criativo', payload: { v: 1, data: BRIEF } },
      ]);
      await fixture.recordArtifact('module_map', {
        version: 1,
        modules: [
          { name: 'pedidos', stack: 'TypeScript', responsibility: 'Os pedidos', dependsOn: [] },
        ],
      });
      await fixture.recordArtifact(
        'task',
        {
          id: 'AT-007',
          story_id: 'HS-001',
          title: 'Criar pedido',
          description: 'Cria o pedido',
          acceptance_criteria: ['guarda a quantidade'],
          module: 'pedidos',
        },
        'arquiteto',
      );
    });
    afterEach(() => fixture.close());

    const promptOf = async (agent: LoopAgent, module: string | null = null) => {
      const events = await fixture.eventLog.read(fixture.sessionId);
      return agent.buildSystemPrompt(
        { state: rehydrate(events), events },
        { projectId: fixture.projectId, sessionId: fixture.sessionId, module },
      );
    };

    it('gives the PO the brief, the backlog and its kickoff', async () => {
      const prompt = await promptOf(poAgent(fixture.line));
      expect(prompt).toContain('Você é o PO');
      expect(prompt).toContain('## Product brief: Padaria do amanhecer');
      expect(prompt).toContain('AT-007 (HS-001) Criar pedido — módulo: pedidos');
      expect(prompt).toContain('6. Quando o backlog cobrir o brief, chame hand_off_to_arquiteto');
    });

    it('gives the Arquiteto the eight steps, the contracts at step 5, and where each step stands', async () => {
      const agent = arquitetoAgent(fixture.line);
      expect(agent.maxIterations).toBe(14);
      const prompt = await promptOf(agent);
      expect(prompt).toMatch(/\n5\. declare_module_contracts — /);
      expect(prompt).toContain('8. hand_off_to_devs');
      expect(prompt).toContain('module_map: versão 1; module_routing: não declarado');
      expect(prompt).toContain('- critério: guarda a quantidade');
    });

    it("keeps the Arquiteto within its budget by the harness's rule: a backlog too long for contexto_projeto loses its last items, never the map, the contracts or a field", async () => {
      for (let index = 10; index < 60; index += 1)
        await fixture.recordArtifact(
          'task',
          {
            id: `AT-${String(index).padStart(3, '0')}`,
            story_id: 'HS-001',
            title: `Tarefa ${index}`,
            description: `Decisão ${index} do PO: ${'detalhe '.repeat(480)}`,
            acceptance_criteria: [`critério ${index}`],
          },
          'po',
        );
      const prompt = await promptOf(arquitetoAgent(fixture.line));
      expect(prompt).toContain('## Mapa de módulos (versão 1)');
      expect(prompt).toContain('## Contratos de módulos');
      expect(prompt).toContain('Decisão 10 do PO');
      expect(prompt).toContain('- critério: critério 10');
      expect(prompt).toContain(TRUNCATION_MARKER);
      expect(prompt).not.toContain('Decisão 59 do PO');
      // The task state (the kickoff and the tasks without a module) is a layer of its own, whole.
      expect(prompt).toContain('Tarefas sem módulo: AT-010');
      expect(prompt).toContain('8. hand_off_to_devs');
    });

    it('tells a dev where its worktree is, its tasks, and that contracts are read with the tool, never in another worktree', async () => {
      const prompt = await promptOf(devAgent(fixture.line, 'pedidos'), 'pedidos');
      const worktree = await fixture.workspaces.ensureWorktree(fixture.projectId, 'pedidos');
      expect(prompt).toContain('Você é um agente dev');
      expect(prompt).toContain(`Seu worktree é ${worktree.directory}, no branch dev-pedidos`);
      expect(prompt).toContain('### AT-007 — Criar pedido');
      expect(prompt).toContain('listar_contratos_de_modulos (sem argumentos)');
      expect(prompt).toContain('nunca no worktree dele');
      // auto (the default): the dev knows which commands wait for the person (ADR 0327).
      expect(prompt).toContain(
        'Comandos arriscados do terminal (apagar, reescrever histórico, baixar e executar) esperam a aprovação da pessoa',
      );
    });
  },
);
