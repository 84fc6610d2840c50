import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { laneOf } from './conversation-queries.ts';
import { rehydrate } from './rehydrate.ts';
import type { SessionEvent } from './session-event.ts';

/**
 * Lanes: each agent of a session is a lane, and lanes interleave in one log. Whatever the interleaving, the
 * fold must give every lane the state it would have had alone — the property that lets dev agents of
 * different modules run at the same time without one's turn reading another's.
 */
type LaneEvent = { id: string; type: string; actor: string; payload: Record<string, unknown> };

const AGENTS = ['criativo', 'po', 'dev:catalogo', 'dev:pedidos'] as const;

/** One well-formed turn of `agent`: started, some tool rounds (some proposed and answered), then an end or left open. */
const turnArbitrary = (agent: string, turn: number, legacy: boolean) =>
  fc
    .record({
      message: fc.boolean(),
      rounds: fc.array(
        fc.record({
          proposed: fc.constantFrom('no', 'approved', 'denied', 'waiting'),
          ok: fc.boolean(),
        }),
        { maxLength: 3 },
      ),
      end: fc.constantFrom('response', 'failed', 'limit', 'open'),
    })
    .map(({ message, rounds, end }) => {
      const turnId = `${agent}-t${turn}`;
      const lane = legacy ? { agent } : { agent, turn_id: turnId };
      const events: Array<Omit<LaneEvent, 'id'>> = [];
      if (message)
        events.push({
          type: 'chat.message',
          actor: 'user',
          payload: { v: 1, text: `to ${agent} #${turn}`, to: agent },
        });
      events.push({
        type: 'turn.started',
        actor: agent,
        payload: { v: 1, agent, turn_id: turnId, kind: 'message' },
      });
      for (const [index, round] of rounds.entries()) {
        const call = `${turnId}-c${index}`;
        events.push({
          type: 'agent.response',
          actor: agent,
          payload: {
            v: 1,
            ...lane,
            text: `step ${index}`,
            tool_calls: [{ id: call, name: 'run', arguments: {} }],
          },
        });
        if (round.proposed !== 'no') {
          const action = `${call}-a`;
          events.push({
            type: 'action.proposed',
            actor: agent,
            payload: {
              v: 1,
              action_id: action,
              tool_call_id: call,
              ...lane,
              tool: 'run',
              args: {},
            },
          });
          if (round.proposed === 'waiting') return events;
          events.push({
            type: `action.${round.proposed}`,
            actor: 'user',
            payload: { v: 1, action_id: action, ...(legacy ? {} : lane) },
          });
        }
        events.push({
          type: 'tool.completed',
          actor: agent,
          payload: {
            v: 1,
            ...lane,
            tool_call_id: call,
            tool: 'run',
            args: {},
            ok: round.ok,
            result: `result ${index}`,
          },
        });
      }
      if (end === 'response')
        events.push({
          type: 'agent.response',
          actor: agent,
          payload: { v: 1, ...lane, text: 'done' },
        });
      if (end === 'failed')
        events.push({
          type: 'turn.failed',
          actor: 'system',
          payload: {
            v: 1,
            turn_id: turnId,
            ...(legacy ? {} : { agent }),
            reason: 'provider_error',
          },
        });
      if (end === 'limit')
        events.push({
          type: 'toolloop.limit_reached',
          actor: agent,
          payload: { v: 1, agent, turn_id: turnId, iterations: 3, ceiling: 3 },
        });
      return events;
    });

/** A lane's whole script: turns one after another (only the last may be left open or waiting). */
const laneArbitrary = (agent: string) =>
  fc
    .record({ turns: fc.integer({ min: 0, max: 3 }), legacy: fc.boolean() })
    .chain(({ turns, legacy }) =>
      fc
        .tuple(...Array.from({ length: turns }, (_, turn) => turnArbitrary(agent, turn, legacy)))
        .map((perTurn) => {
          const events: Array<Omit<LaneEvent, 'id'>> = [];
          for (const turn of perTurn) {
            events.push(...turn);
            const last = turn.at(-1);
            if (
              last?.type === 'action.proposed' ||
              last?.type === 'turn.started' ||
              last?.type === 'tool.completed'
            )
              break;
            if (last?.type === 'agent.response' && last.payload['tool_calls'] !== undefined) break;
          }
          return events.map((event, index) => ({ ...event, id: `${agent}#${index}` }));
        }),
    );

const activations: LaneEvent[] = AGENTS.map((agent) => ({
  id: `activate ${agent}`,
  type: 'agent.activated',
  actor: 'system',
  payload: { v: 1, agent, handoff_id: null },
}));

/** Lays events out as a stored log, seqs 1..n in the given order. */
function asLog(events: readonly LaneEvent[]): SessionEvent[] {
  return events.map((event, index) => ({
    ...event,
    session_id: 'session-1',
    seq: index + 1,
    created_at: `2026-01-01T00:00:${String(index).padStart(2, '0')}Z`,
  }));
}

/** A lane's state with every seq replaced by the id of the event at that seq, so logs of different layout compare. */
function comparable(log: readonly SessionEvent[], agent: string): unknown {
  const idOf = new Map(log.map((event) => [event.seq, event.id]));
  const replaceSeqs = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(replaceSeqs);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key === 'seq'
          ? idOf.get(inner as number)
          : key === 'event_id'
            ? undefined
            : replaceSeqs(inner),
      ]),
    );
  };
  return replaceSeqs(laneOf(rehydrate(log), agent));
}

/** Every lane's events merged in an order drawn by `picks`, each lane's own order kept. */
function interleave(lanes: readonly LaneEvent[][], picks: readonly number[]): LaneEvent[] {
  const cursors = lanes.map(() => 0);
  const merged: LaneEvent[] = [];
  let pick = 0;
  while (cursors.some((cursor, lane) => cursor < lanes[lane]!.length)) {
    const open = lanes
      .map((_, lane) => lane)
      .filter((lane) => cursors[lane]! < lanes[lane]!.length);
    const lane = open[(picks[pick++ % Math.max(picks.length, 1)] ?? 0) % open.length]!;
    merged.push(lanes[lane]![cursors[lane]!]!);
    cursors[lane]! += 1;
  }
  return merged;
}

describe('lanes', () => {
  it('any interleaving of lane events folds to the same per-lane state as each lane alone', () => {
    fc.assert(
      fc.property(
        fc.tuple(...AGENTS.map(laneArbitrary)),
        fc.array(fc.nat(), { minLength: 1, maxLength: 200 }),
        (lanes, picks) => {
          const together = asLog([...activations, ...interleave(lanes, picks)]);
          for (const [index, agent] of AGENTS.entries()) {
            const alone = asLog([...activations, ...lanes[index]!]);
            expect(comparable(together, agent)).toEqual(comparable(alone, agent));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps one turn in progress per lane, several lanes at once', () => {
    const log = asLog([
      ...activations,
      {
        id: 'a',
        type: 'turn.started',
        actor: 'dev:catalogo',
        payload: { v: 1, agent: 'dev:catalogo', turn_id: 't-cat', kind: 'message' },
      },
      {
        id: 'b',
        type: 'turn.started',
        actor: 'dev:pedidos',
        payload: { v: 1, agent: 'dev:pedidos', turn_id: 't-ped', kind: 'message' },
      },
      {
        id: 'c',
        type: 'agent.response',
        actor: 'dev:catalogo',
        payload: { v: 1, agent: 'dev:catalogo', turn_id: 't-cat', text: 'feito' },
      },
    ]);
    expect(rehydrate(log).turns_in_progress.map((turn) => [turn.agent, turn.turn_id])).toEqual([
      ['dev:pedidos', 't-ped'],
    ]);
  });
});
