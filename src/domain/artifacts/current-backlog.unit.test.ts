import { describe, expect, it } from 'vitest';
import { buildSessionEvents } from '../conversation/test-support/build-session-events.ts';
import { currentBacklog, splitNote } from './current-backlog.ts';

const task = (module?: string) => ({
  id: 'AT-001',
  story_id: 'HS-001',
  title: 'Tela',
  description: 'Formulário',
  acceptance_criteria: ['ok'],
  ...(module ? { module } : {}),
});

describe('currentBacklog', () => {
  it('keeps each id at its latest declaration, in the order ids first appeared', () => {
    const events = buildSessionEvents('s1', [
      { type: 'artifact.task', actor: 'po', payload: { v: 1, data: task() } },
      { type: 'artifact.task', actor: 'po', payload: { v: 1, data: { ...task(), id: 'AT-002' } } },
      { type: 'artifact.task', actor: 'arquiteto', payload: { v: 1, data: task('pedidos') } },
      { type: 'artifact.task', actor: 'po', payload: { v: 1, data: { broken: true } } },
    ]);
    const backlog = currentBacklog(events);
    expect(backlog.tasks.map((item) => [item.id, item.module])).toEqual([
      ['AT-001', 'pedidos'],
      ['AT-002', undefined],
    ]);
    expect(backlog.epics).toEqual([]);
  });

  it("puts a split task aside and keeps a part's provenance when the part is declared again", () => {
    const part = (id: string, module: string) => ({
      ...task(module),
      id,
      title: `Parte ${id}`,
      split_from: 'AT-001',
    });
    const events = buildSessionEvents('s1', [
      { type: 'artifact.task', actor: 'po', payload: { v: 1, data: task('pedidos') } },
      { type: 'artifact.task', actor: 'po', payload: { v: 1, data: { ...task(), id: 'AT-002' } } },
      {
        type: 'artifact.task',
        actor: 'arquiteto',
        payload: { v: 1, data: { ...task('pedidos'), split_into: ['AT-003', 'AT-004'] } },
      },
      { type: 'artifact.task', actor: 'arquiteto', payload: { v: 1, data: part('AT-003', 'api') } },
      { type: 'artifact.task', actor: 'arquiteto', payload: { v: 1, data: part('AT-004', 'web') } },
      {
        type: 'artifact.task',
        actor: 'po',
        payload: { v: 1, data: { ...task('web'), id: 'AT-004', title: 'Reescrita' } },
      },
    ]);
    const backlog = currentBacklog(events);
    expect(backlog.tasks.map((item) => [item.id, item.module, item.split_from])).toEqual([
      ['AT-002', undefined, undefined],
      ['AT-003', 'api', 'AT-001'],
      ['AT-004', 'web', 'AT-001'],
    ]);
    expect(backlog.tasks.find((item) => item.id === 'AT-004')!.title).toBe('Reescrita');
    expect(backlog.split.map((item) => [item.id, item.split_into])).toEqual([
      ['AT-001', ['AT-003', 'AT-004']],
    ]);
    expect(splitNote(backlog, 'AT-001')).toBe(
      'AT-001 was split by the Arquiteto into AT-003 (api), AT-004 (web)',
    );
    expect(splitNote(backlog, 'AT-002')).toBeNull();
  });
});
