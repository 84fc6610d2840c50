import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { laneOf } from './conversation-queries.ts';
import { rehydrate } from './rehydrate.ts';
import type { SessionEvent } from './session-event.ts';

const events = JSON.parse(
  readFileSync(new URL('./__fixtures__/two-dev-lanes.v1.json', import.meta.url), 'utf8'),
) as SessionEvent[];

describe('the frozen two-dev-lanes log', () => {
  it('folds into one state per lane, forever', () => {
    const state = rehydrate(events);
    expect(state.skipped).toEqual([]);
    expect(state.turns_in_progress).toEqual([
      { turn_id: 'turn-cat', agent: 'dev:catalogo', kind: 'message', seq: 5 },
    ]);
    expect(state.last_addressed).toEqual({ agent: 'dev:catalogo', seq: 14 });
    const catalogo = laneOf(state, 'dev:catalogo');
    expect(catalogo.history.map((entry) => [entry.seq, entry.role])).toEqual([
      [9, 'assistant'],
      [14, 'user'],
    ]);
    expect(catalogo.pending_actions).toEqual([
      {
        action_id: 'action-cat',
        tool_call_id: 'call_dev:catalogo_0_0',
        status: 'approved',
        agent: 'dev:catalogo',
        turn_id: 'turn-cat',
        tool: 'terminal',
        args: { command: 'npm test' },
        seq: 11,
      },
    ]);
    expect(laneOf(state, 'dev:pedidos')).toMatchObject({
      turn_in_progress: null,
      pending_actions: [],
    });
    expect(laneOf(state, 'dev:pedidos').history.map((entry) => [entry.seq, entry.role])).toEqual([
      [12, 'assistant'],
      [13, 'tool'],
      [15, 'assistant'],
    ]);
    expect(
      laneOf(state, 'criativo').history.map((entry) => [entry.seq, entry.role, entry.content]),
    ).toEqual([
      [7, 'user', 'E se tiver café também?'],
      [10, 'assistant', 'Anoto o café para depois.'],
    ]);
  });
});
