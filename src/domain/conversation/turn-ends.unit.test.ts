import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endsTurn } from './event-types.ts';
import { rehydrate } from './rehydrate.ts';
import { withTurnEnds } from './turn-ends.ts';
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

/** A lane's event that may end its turn, naming lane `agent`/`turn_id`, with a payload the fold accepts. */
const laneEvent = (agent: string, turnId: string) => {
  const lane = { agent, turn_id: turnId };
  return fc.constantFrom(
    { type: 'agent.response', payload: { v: 1, ...lane, text: 'pronto' } },
    { type: 'agent.response', payload: { v: 1, ...lane, text: 'vou ler', tool_calls: [CALL] } },
    { type: 'turn.failed', payload: { v: 1, ...lane, reason: 'provider_error', message: 'x' } },
    {
      type: 'turn.completed',
      payload: { v: 1, ...lane, answer_event_id: '00000000-0000-4000-8000-000000000001' },
    },
    { type: 'toolloop.limit_reached', payload: { v: 1, ...lane, iterations: 8, ceiling: 8 } },
    { type: 'turn.stopped', payload: { v: 1, ...lane, text: 'até aqui', by: 'user' } },
    { type: 'chat.message', payload: { v: 1, text: 'olá', to: agent } },
  );
};

const LANES = [
  { agent: 'dev:api', turn_id: 't1' },
  { agent: 'dev:web', turn_id: 't2' },
] as const;

/** A batch of events of two lanes' turns, in any order. */
const batch = fc.array(fc.oneof(...LANES.map((lane) => laneEvent(lane.agent, lane.turn_id))), {
  maxLength: 6,
});

describe('withTurnEnds, the record of every turn end', () => {
  it('appends one turn.ended per turn the batch ends, after the batch, and exactly the turns the fold closes', () => {
    fc.assert(
      fc.property(batch, (events) => {
        const specs = events.map((event) => ({ ...event, actor: 'system' }));
        const recorded = withTurnEnds(specs);
        expect(recorded.slice(0, specs.length)).toEqual(specs);
        const ends = recorded.slice(specs.length);
        expect(ends.every((event) => event.type === 'turn.ended')).toBe(true);
        const started = LANES.map((lane) => ({
          type: 'turn.started',
          actor: lane.agent,
          payload: { v: 1, ...lane, kind: 'message' },
        }));
        const state = rehydrate(buildSessionEvents('s', [...started, ...recorded]));
        expect(state.skipped).toEqual([]);
        const open = new Set(state.turns_in_progress.map((turn) => turn.turn_id));
        const ended = ends.map((event) => (event.payload as { turn_id: string }).turn_id);
        expect(new Set(ended).size).toBe(ended.length);
        expect(ended.sort()).toEqual(
          LANES.map((lane) => lane.turn_id).filter((turnId) => !open.has(turnId)),
        );
      }),
    );
  });

  it('records what ended the turn, and nothing again for a batch that holds its own turn.ended', () => {
    fc.assert(
      fc.property(laneEvent('dev:api', 't1'), (event) => {
        const once = withTurnEnds([{ ...event, actor: 'system' }]);
        expect(withTurnEnds(once)).toEqual(once);
        const outcome =
          once.length === 2 ? (once[1]!.payload as { outcome: string }).outcome : null;
        const outcomes: Record<string, string> = {
          'agent.response': 'answered',
          'turn.completed': 'answered',
          'turn.failed': 'failed',
          'turn.stopped': 'stopped',
          'toolloop.limit_reached': 'limit_reached',
        };
        const expected = outcomes[event.type];
        const endsIt = event.type === 'turn.stopped' || endsTurn(event);
        expect(outcome).toBe(endsIt ? expected : null);
      }),
    );
  });

  it('leaves out an end that names no turn or no agent (a log from before lanes)', () => {
    expect(
      withTurnEnds([
        { type: 'agent.response', actor: 'po', payload: { v: 1, agent: 'po', text: 'ok' } },
      ]),
    ).toHaveLength(1);
    expect(
      withTurnEnds([
        { type: 'turn.failed', actor: 'system', payload: { v: 1, turn_id: 't', reason: 'x' } },
      ]),
    ).toHaveLength(1);
  });
});
