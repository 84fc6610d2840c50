import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endsTurn } from './event-types.ts';
import { rehydrate } from './rehydrate.ts';
import { buildSessionEvents } from './test-support/build-session-events.ts';

const LANE = { agent: 'dev:api', turn_id: 't1' };
const CALL = { id: 'c1', name: 'read_file', arguments: { path: 'x' } };

/** One event of the lane's turn that may or may not end it, with a payload the fold accepts. */
const closing = fc.oneof(
  fc.record({
    type: fc.constant('agent.response'),
    payload: fc.constantFrom(
      { v: 1, ...LANE, text: 'pronto' },
      { v: 1, ...LANE, text: 'pronto', tool_calls: [] },
      { v: 1, ...LANE, text: 'vou ler', tool_calls: [CALL] },
    ),
  }),
  fc.record({
    type: fc.constant('turn.failed'),
    payload: fc.constant({ v: 1, turn_id: 't1', reason: 'provider_error', message: 'x' }),
  }),
  fc.record({
    type: fc.constant('turn.completed'),
    payload: fc.constant({
      v: 1,
      ...LANE,
      answer_event_id: '00000000-0000-4000-8000-000000000001',
    }),
  }),
  fc.record({
    type: fc.constant('toolloop.limit_reached'),
    payload: fc.constant({ v: 1, ...LANE, iterations: 8, ceiling: 8 }),
  }),
  fc.record({
    type: fc.constant('tool.completed'),
    payload: fc.constant({
      v: 1,
      ...LANE,
      tool_call_id: 'c1',
      tool: 'read_file',
      args: {},
      ok: true,
      result: 'x',
    }),
  }),
);

describe('endsTurn, the one rule of a turn end', () => {
  it('says a turn ended exactly when the conversation fold closes it', () => {
    fc.assert(
      fc.property(closing, (event) => {
        const log = buildSessionEvents('s', [
          { type: 'turn.started', actor: 'dev:api', payload: { v: 1, ...LANE, kind: 'message' } },
          { ...event, actor: 'dev:api' },
        ]);
        const state = rehydrate(log);
        expect(state.skipped).toEqual([]);
        expect(state.turns_in_progress.length === 0).toBe(endsTurn(log[1]!));
      }),
    );
  });
});
