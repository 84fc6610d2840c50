import { describe, expect, it } from 'vitest';
import { buildSessionEvents } from '../conversation/test-support/build-session-events.ts';
import { currentBacklog } from './current-backlog.ts';

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
});
