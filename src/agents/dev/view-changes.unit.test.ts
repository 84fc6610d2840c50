import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTRACT_ITEM_TYPES } from '../../domain/architecture/index.ts';
import {
  initialState,
  type ConversationState,
  type SessionEvent,
} from '../../domain/conversation/index.ts';
import { dependencyTurnsOwed } from './dependency-updates.ts';
import { moduleFinishes } from './finished-tasks.ts';
import { MAX_LISTED_VIEW_CHANGES, renderViewChanges, viewChangeTurnsOwed } from './view-changes.ts';

type Item = { tipo: string; assinatura: string; descricao?: string };

function log() {
  const events: SessionEvent[] = [];
  const add = (type: string, payload: Record<string, unknown>) => {
    const seq = events.length + 1;
    events.push({
      id: `e${seq}`,
      session_id: 's',
      seq,
      type,
      actor: 'x',
      payload,
      created_at: '2026-12-02T10:00:00.000Z',
    } as SessionEvent);
  };
  return {
    events,
    map: (version: number, checkOfPedidos = 'node --test') =>
      add('artifact.module_map', {
        v: 1,
        data: {
          version,
          modules: [
            { name: 'catalogo', stack: 'TS', responsibility: 'pães', dependsOn: [] },
            {
              name: 'pedidos',
              stack: 'TS',
              responsibility: 'pedidos',
              dependsOn: ['catalogo'],
              check: checkOfPedidos,
            },
            { name: 'estoque', stack: 'TS', responsibility: 'estoque', dependsOn: [] },
          ],
        },
      }),
    contracts: (version: number, catalogo: Item[], estoque: Item[] = [ESTOQUE]) =>
      add('artifact.module_contracts', {
        v: 1,
        data: {
          version,
          contratos: [
            { modulo: 'catalogo', expoe: catalogo },
            { modulo: 'estoque', expoe: estoque },
          ],
        },
      }),
    turn: (agent: string) => add('turn.started', { v: 1, agent, turn_id: `t${events.length}` }),
    add,
  };
}

const ESTOQUE: Item = { tipo: 'funcao', assinatura: 'baixar(id: string): void' };
const PRAZO = (hour: string): Item => ({
  tipo: 'dado',
  assinatura: `PRAZO_ENTREGA = "${hour}"`,
  descricao: 'Hora limite',
});
const LISTAR: Item = { tipo: 'funcao', assinatura: 'listarPaes(): Pao[]' };
const idle: ConversationState = initialState();

describe('viewChangeTurnsOwed', () => {
  it('owes a turn to the devs whose own or consumed contracts changed after their last turn, and to no other', () => {
    const line = log();
    line.map(1);
    line.contracts(1, [LISTAR, PRAZO('18:00')]);
    for (const agent of ['dev:catalogo', 'dev:pedidos', 'dev:estoque']) line.turn(agent);
    line.contracts(2, [LISTAR, PRAZO('20:00')]);
    expect(viewChangeTurnsOwed(line.events).sort()).toEqual(['dev:catalogo', 'dev:pedidos']);
    // The turn it is owed moves its last start past the change: owed once.
    line.turn('dev:pedidos');
    expect(viewChangeTurnsOwed(line.events)).toEqual(['dev:catalogo']);
  });

  it('owes nothing to a dev that never had a turn (its kickoff reads the current view), nor for a version that changes nothing it reads', () => {
    const line = log();
    line.map(1);
    line.contracts(1, [LISTAR]);
    line.contracts(2, [LISTAR, PRAZO('20:00')]);
    expect(viewChangeTurnsOwed(line.events)).toEqual([]);
    line.turn('dev:pedidos');
    line.turn('dev:estoque');
    line.contracts(3, [LISTAR, PRAZO('21:00')], [ESTOQUE]);
    line.map(2);
    expect(viewChangeTurnsOwed(line.events)).toEqual(['dev:pedidos']);
  });

  it('owes a turn for a changed check of the module, and says it', () => {
    const line = log();
    line.map(1, 'node --test');
    line.contracts(1, [LISTAR]);
    line.turn('dev:pedidos');
    line.map(2, 'npm test');
    expect(viewChangeTurnsOwed(line.events)).toEqual(['dev:pedidos']);
    expect(renderViewChanges(idle, line.events, 'dev:pedidos')).toContain(
      '- check do seu módulo pedidos: agora `npm test` (antes: `node --test`)',
    );
  });

  it('owes a turn to the devs whose tasks a split changed, naming the part added and the task removed', () => {
    const line = log();
    const task = (id: string, module: string, extra: Record<string, unknown> = {}) =>
      line.add('artifact.task', {
        v: 1,
        data: {
          id,
          story_id: 'HS-001',
          title: `Tarefa ${id}`,
          description: 'd',
          acceptance_criteria: ['c'],
          module,
          ...extra,
        },
      });
    line.map(1);
    line.contracts(1, [LISTAR]);
    task('AT-001', 'pedidos');
    task('AT-002', 'estoque');
    for (const agent of ['dev:catalogo', 'dev:pedidos', 'dev:estoque']) line.turn(agent);
    expect(viewChangeTurnsOwed(line.events)).toEqual([]);
    task('AT-001', 'pedidos', { split_into: ['AT-003', 'AT-004'] });
    task('AT-003', 'pedidos', { split_from: 'AT-001' });
    task('AT-004', 'catalogo', { split_from: 'AT-001' });
    expect(viewChangeTurnsOwed(line.events).sort()).toEqual(['dev:catalogo', 'dev:pedidos']);
    expect(renderViewChanges(idle, line.events, 'dev:catalogo')).toContain(
      '- tarefa nova do seu módulo: AT-004 — Tarefa AT-004 (parte de AT-001); está em "Suas tarefas"',
    );
    const pedidos = renderViewChanges(idle, line.events, 'dev:pedidos')!;
    expect(pedidos).toContain(
      '- tarefa nova do seu módulo: AT-003 — Tarefa AT-003 (parte de AT-001)',
    );
    expect(pedidos).toContain(
      '- AT-001 — Tarefa AT-001 não é mais tarefa do seu módulo (dividida, movida ou substituída pelo Arquiteto): não a termine',
    );
    expect(renderViewChanges(idle, line.events, 'dev:estoque')).toBeNull();
  });

  it('owes nothing to a dev whose block is open or answered but not yet told: its unblocking turn brings the change; after it, a change owes again', () => {
    const line = log();
    line.map(1);
    line.contracts(1, [LISTAR]);
    line.turn('dev:catalogo');
    line.turn('dev:pedidos');
    line.add('dev.blocked', {
      v: 1,
      agent: 'dev:pedidos',
      module: 'pedidos',
      modulo: 'catalogo',
      falta: 'AT-002 atravessa catalogo',
      kind: 'task',
    });
    const blockSeq = line.events.length;
    line.contracts(2, [LISTAR, PRAZO('20:00')]);
    expect(viewChangeTurnsOwed(line.events)).toEqual(['dev:catalogo']);
    line.add('arquiteto.block_answered', {
      v: 1,
      dev: 'dev:pedidos',
      block_seq: blockSeq,
      answer: 'Siga sem isso.',
    });
    // Answered, not yet told: the turn `dev.unblocked` gives it brings the answer and the change at once.
    expect(viewChangeTurnsOwed(line.events)).toEqual(['dev:catalogo']);
    line.add('dev.unblocked', {
      v: 1,
      agent: 'dev:pedidos',
      module: 'pedidos',
      modulo: 'catalogo',
      falta: 'AT-002 atravessa catalogo',
      block_seq: blockSeq,
      resolution: { kind: 'answer', answer: 'Siga sem isso.', seq: blockSeq + 2 },
    });
    expect(viewChangeTurnsOwed(line.events).sort()).toEqual(['dev:catalogo', 'dev:pedidos']);
  });

  it('a redeclaration with the same items owes no turn, whatever the items (property)', () => {
    const item = fc.record({
      tipo: fc.constantFrom(...CONTRACT_ITEM_TYPES),
      assinatura: fc.string({ minLength: 1, maxLength: 40 }).filter((text) => text.trim() !== ''),
      descricao: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 8 }), (items) => {
        const line = log();
        line.map(1);
        line.contracts(1, items);
        line.turn('dev:pedidos');
        line.contracts(2, items);
        expect(viewChangeTurnsOwed(line.events)).toEqual([]);
        expect(renderViewChanges(idle, line.events, 'dev:pedidos')).toBeNull();
      }),
    );
  });
});

describe('renderViewChanges', () => {
  it('lists what was added, removed and changed with the new text, naming whose module', () => {
    const line = log();
    line.map(1);
    line.contracts(1, [LISTAR, PRAZO('18:00'), { tipo: 'rota', assinatura: 'GET /paes -> 200' }]);
    line.turn('dev:pedidos');
    line.contracts(2, [
      PRAZO('20:00'),
      { tipo: 'rota', assinatura: 'GET /paes -> 200 { paes }' },
      { tipo: 'evento', assinatura: 'PaoEsgotado { paoId }' },
    ]);
    const text = renderViewChanges(idle, line.events, 'dev:pedidos');
    expect(text).toContain('Mudou desde o seu último turno');
    expect(text).toContain(
      '- catalogo (você consome), alterado: agora [dado] PRAZO_ENTREGA = "20:00" — Hora limite (antes: [dado] PRAZO_ENTREGA = "18:00" — Hora limite)',
    );
    expect(text).toContain(
      '- catalogo (você consome), alterado: agora [rota] GET /paes -> 200 { paes }',
    );
    expect(text).toContain('- catalogo (você consome), adicionado: [evento] PaoEsgotado { paoId }');
    expect(text).toContain('- catalogo (você consome), removido: [funcao] listarPaes(): Pao[]');
    // The lane of a module nothing changed for is told nothing.
    line.turn('dev:estoque');
    expect(renderViewChanges(idle, line.events, 'dev:estoque')).toBeNull();
  });

  it('lists at most MAX_LISTED_VIEW_CHANGES changes and counts the rest', () => {
    const many = (prefix: string) =>
      Array.from({ length: 30 }, (_, index) => ({
        tipo: 'funcao',
        assinatura: `${prefix}${index}(): void`,
      }));
    const line = log();
    line.map(1);
    line.contracts(1, many('f'));
    line.turn('dev:catalogo');
    // 30 removed and 30 added: 60 changes.
    line.contracts(2, many('h'));
    const text = renderViewChanges(idle, line.events, 'dev:catalogo')!;
    expect(text.split('\n').filter((row) => row.startsWith('- '))).toHaveLength(
      MAX_LISTED_VIEW_CHANGES,
    );
    expect(text).toContain(`[… mais ${60 - MAX_LISTED_VIEW_CHANGES} mudanças`);
  });
});

describe('moduleFinishes', () => {
  it("a task's finish stands until a failed merge of its module re-opens it; the module's last finish is kept", () => {
    const line = log();
    const finished = (task_id: string, commit: string) =>
      line.add('dev.task_finished', {
        v: 1,
        agent: 'dev:catalogo',
        module: 'catalogo',
        task_id,
        summary: 'feito',
        branch: 'dev-catalogo',
        commit,
        files: ['a.ts'],
      });
    expect(moduleFinishes(line.events, 'catalogo', 'AT-001')).toEqual({
      standing: null,
      last: null,
    });
    finished('AT-001', 'c1');
    expect(moduleFinishes(line.events, 'catalogo', 'AT-001').standing).toMatchObject({
      commit: 'c1',
    });
    expect(moduleFinishes(line.events, 'catalogo', 'AT-002')).toMatchObject({
      standing: null,
      last: { task_id: 'AT-001', commit: 'c1' },
    });
    expect(moduleFinishes(line.events, 'pedidos', 'AT-001')).toEqual({
      standing: null,
      last: null,
    });
    line.add('module.merge_failed', { v: 1, module: 'catalogo', kind: 'check', output: 'x' });
    expect(moduleFinishes(line.events, 'catalogo', 'AT-001')).toMatchObject({
      standing: null,
      last: { commit: 'c1' },
    });
  });
});

describe('dependencyTurnsOwed', () => {
  it("owes a dev a turn once its branch took a dependency's code, until its next turn or its module's merge", () => {
    const line = log();
    const update = (module: string) =>
      line.add('module.dependency_merged', {
        v: 1,
        module,
        dependencies: ['catalogo'],
        commit: 'c1',
      });
    update('pedidos');
    expect(dependencyTurnsOwed(line.events)).toEqual([]);
    line.turn('dev:pedidos');
    line.turn('dev:estoque');
    update('pedidos');
    expect(dependencyTurnsOwed(line.events)).toEqual(['dev:pedidos']);
    line.turn('dev:pedidos');
    expect(dependencyTurnsOwed(line.events)).toEqual([]);
    update('estoque');
    line.add('module.merged', { v: 1, module: 'estoque', commit: 'c2', checks: [] });
    expect(dependencyTurnsOwed(line.events)).toEqual([]);
  });
});
