import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../domain/conversation/index.ts';
import { devBlocks, renderOpenBlocks, renderUnblocked } from './dev-blocks.ts';

let seq = 0;
const event = (type: string, payload: Record<string, unknown>): SessionEvent =>
  ({
    id: `e${++seq}`,
    session_id: 's',
    seq,
    type,
    actor: 'x',
    payload: { v: 1, ...payload },
    created_at: '2026-12-01T10:00:00.000Z',
  }) as SessionEvent;
const blocked = () =>
  event('dev.blocked', {
    agent: 'dev:catalogo',
    module: 'catalogo',
    modulo: 'pedidos',
    falta: 'evento PedidoCriado',
  });

describe('devBlocks', () => {
  it('is open until the Arquiteto answers, then resolved, then unblocked, and the dev is told the answer', () => {
    const block = blocked();
    const answered = event('arquiteto.block_answered', {
      dev: 'dev:catalogo',
      block_seq: block.seq,
      answer: 'O estoque fica fora desta versão.',
    });
    expect(devBlocks([block])).toMatchObject([{ status: 'open', arquiteto_turns: 0 }]);
    expect(renderOpenBlocks(devBlocks([block]))).toContain('dev:catalogo (módulo catalogo, seq');
    const resolved = devBlocks([block, answered]);
    expect(resolved).toMatchObject([
      {
        status: 'resolved',
        resolution: {
          kind: 'answer',
          answer: 'O estoque fica fora desta versão.',
          seq: answered.seq,
        },
      },
    ]);
    expect(renderOpenBlocks(resolved)).toBeNull();
    const unblocked = event('dev.unblocked', {
      agent: 'dev:catalogo',
      module: 'catalogo',
      modulo: 'pedidos',
      falta: 'evento PedidoCriado',
      block_seq: block.seq,
      resolution: resolved[0]!.resolution,
    });
    const done = devBlocks([block, answered, unblocked]);
    expect(done).toMatchObject([{ status: 'unblocked' }]);
    expect(renderUnblocked(done, 'dev:catalogo')).toContain(
      'seguir sem isso: O estoque fica fora desta versão.',
    );
    expect(renderUnblocked(done, 'dev:pedidos')).toBeNull();
  });

  it('is resolved by a contracts version declared after it, not by one declared before', () => {
    const before = event('artifact.module_contracts', { data: { version: 1, contratos: [] } });
    const block = blocked();
    expect(devBlocks([before, block])).toMatchObject([{ status: 'open' }]);
    const after = event('artifact.module_contracts', { data: { version: 2, contratos: [] } });
    expect(devBlocks([before, block, after])).toMatchObject([
      { status: 'resolved', resolution: { kind: 'contracts', version: 2 } },
    ]);
  });

  it('is resolved by what its kind asks for: contracts an interface, a module map a check or a task, either one the other kind', () => {
    const of = (kind: string) =>
      event('dev.blocked', {
        agent: `dev:${kind}`,
        module: kind,
        modulo: kind,
        falta: `o ${kind}`,
        kind,
      });
    const blocks = ['interface', 'check', 'task', 'other'].map(of);
    const map = event('artifact.module_map', { data: { version: 2, modules: [] } });
    const afterMap = devBlocks([...blocks, map]);
    expect(afterMap.map((block) => [block.kind, block.status, block.resolution?.kind])).toEqual([
      ['interface', 'open', undefined],
      ['check', 'resolved', 'module_map'],
      ['task', 'resolved', 'module_map'],
      ['other', 'resolved', 'module_map'],
    ]);
    const contracts = event('artifact.module_contracts', { data: { version: 3, contratos: [] } });
    expect(devBlocks([...blocks, contracts]).map((block) => block.status)).toEqual([
      'resolved',
      'open',
      'open',
      'resolved',
    ]);
    // A block recorded before kinds is an interface.
    expect(devBlocks([blocked()])).toMatchObject([{ kind: 'interface' }]);
    const open = renderOpenBlocks(devBlocks(blocks))!;
    expect(open).toContain(
      'tipo check) está bloqueado em check: o check do módulo check está quebrado pelo mapa',
    );
    expect(open).toContain('resolva com declare_module_map');
    const unblocked = event('dev.unblocked', {
      agent: 'dev:check',
      module: 'check',
      modulo: 'check',
      falta: 'o check',
      block_seq: blocks[1]!.seq,
      resolution: afterMap[1]!.resolution,
    });
    expect(renderUnblocked(devBlocks([...blocks, map, unblocked]), 'dev:check')).toContain(
      'declarou o mapa de módulos na versão 2',
    );
  });

  it('needs the person when an Arquiteto turn started after the block ends without resolving it', () => {
    const earlier = event('turn.started', { agent: 'arquiteto', turn_id: 't0', kind: 'message' });
    const block = blocked();
    const endOfEarlier = event('agent.response', { agent: 'arquiteto', turn_id: 't0', text: 'ok' });
    expect(devBlocks([earlier, block, endOfEarlier])).toMatchObject([
      { needs_person: false, arquiteto_turns: 0 },
    ]);
    const started = event('turn.started', { agent: 'arquiteto', turn_id: 't1', kind: 'message' });
    const limit = event('toolloop.limit_reached', {
      agent: 'arquiteto',
      turn_id: 't1',
      iterations: 14,
      ceiling: 14,
    });
    expect(devBlocks([earlier, block, endOfEarlier, started])).toMatchObject([
      { needs_person: false, arquiteto_turns: 1 },
    ]);
    expect(devBlocks([earlier, block, endOfEarlier, started, limit])).toMatchObject([
      { status: 'open', needs_person: true },
    ]);
  });
});
