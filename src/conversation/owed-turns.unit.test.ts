import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rehydrate } from '../domain/conversation/index.ts';
import {
  buildSessionEvents,
  type EventSpec,
} from '../domain/conversation/test-support/build-session-events.ts';
import { owedTurns, type OwedTurn } from './owed-turns.ts';

const AGENTS = ['criativo', 'arquiteto', 'dev:a', 'dev:b'] as const;
type Agent = (typeof AGENTS)[number];

const activated = (agent: string, handoffId: string | null = null): EventSpec => ({
  type: 'agent.activated',
  payload: { v: 1, agent, handoff_id: handoffId },
});
const message = (to: string): EventSpec => ({
  type: 'chat.message',
  actor: 'user',
  payload: { v: 1, text: 'olá', to },
});
let turns = 0;
/** A whole turn: started, then its final answer. */
const turn = (agent: string): EventSpec[] => {
  turns += 1;
  const turn_id = `t${turns}`;
  return [
    { type: 'turn.started', actor: agent, payload: { v: 1, agent, turn_id, kind: 'message' } },
    { type: 'agent.response', actor: agent, payload: { v: 1, agent, turn_id, text: 'pronto' } },
  ];
};
const unblocked = (agent: string): EventSpec => ({
  type: 'dev.unblocked',
  payload: {
    v: 1,
    agent,
    module: agent.slice(4),
    modulo: agent.slice(4),
    falta: 'o contrato',
    block_seq: 1,
    resolution: { kind: 'answer', answer: 'use X', seq: 1 },
  },
});
const mergeFailed = (agent: string): EventSpec => ({
  type: 'module.merge_failed',
  payload: { v: 1, module: agent.slice(4), kind: 'conflict', paths: ['a.ts'] },
});
const blocked = (agent: string): EventSpec => ({
  type: 'dev.blocked',
  actor: agent,
  payload: { v: 1, agent, module: agent.slice(4), modulo: agent.slice(4), falta: 'o contrato' },
});

const ACTIVE: EventSpec[] = [
  activated('criativo'),
  activated('arquiteto'),
  ...turn('arquiteto'),
  activated('dev:a'),
  activated('dev:b'),
  ...turn('dev:a'),
  ...turn('dev:b'),
];

const owed = (specs: readonly EventSpec[], hasRuntime = (_: string) => true): OwedTurn[] => {
  const events = buildSessionEvents('s1', specs);
  return owedTurns(rehydrate(events), events, hasRuntime);
};
const owedAgents = (specs: readonly EventSpec[]) =>
  owed(specs)
    .map((entry) => entry.agent)
    .sort();

/** What happens to a lane in a random log: the person writes, a turn runs, a dev is unblocked, a merge fails. */
type Step =
  | { kind: 'message'; agent: Agent }
  | { kind: 'turn'; agent: Agent }
  | { kind: 'unblocked'; agent: 'dev:a' | 'dev:b' }
  | { kind: 'merge_failed'; agent: 'dev:a' | 'dev:b' };
const dev = fc.constantFrom<'dev:a' | 'dev:b'>('dev:a', 'dev:b');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('message' as const), agent: fc.constantFrom(...AGENTS) }),
  fc.record({ kind: fc.constant('turn' as const), agent: fc.constantFrom(...AGENTS) }),
  fc.record({ kind: fc.constant('unblocked' as const), agent: dev }),
  fc.record({ kind: fc.constant('merge_failed' as const), agent: dev }),
);
const specsOf = (steps: readonly Step[]): EventSpec[] =>
  steps.flatMap((one) =>
    one.kind === 'message'
      ? [message(one.agent)]
      : one.kind === 'turn'
        ? turn(one.agent)
        : one.kind === 'unblocked'
          ? [unblocked(one.agent)]
          : [mergeFailed(one.agent)],
  );

/**
 * The reference: how many turns each lane still owes, walked by hand. A turn answers the oldest message still
 * waiting and sees every unblock and failed merge recorded before it; a lane with no message waiting but
 * something it has not seen owes one turn.
 */
function stillOwed(steps: readonly Step[]): Map<Agent, number> {
  const waiting = new Map<Agent, number>();
  const unseen = new Set<Agent>();
  for (const one of steps) {
    if (one.kind === 'message') waiting.set(one.agent, (waiting.get(one.agent) ?? 0) + 1);
    else if (one.kind === 'turn') {
      waiting.set(one.agent, Math.max(0, (waiting.get(one.agent) ?? 0) - 1));
      unseen.delete(one.agent);
    } else unseen.add(one.agent);
  }
  return new Map(
    AGENTS.map((agent) => [agent, Math.max(waiting.get(agent) ?? 0, unseen.has(agent) ? 1 : 0)]),
  );
}

/** Runs one turn for the first lane `owedTurns` names, until none owes anything; counts each lane's turns. */
function drain(specs: EventSpec[]): { turnsRun: Map<string, number>; log: EventSpec[] } {
  const log = [...specs];
  const turnsRun = new Map<string, number>();
  for (let round = 0; round < 200; round++) {
    const next = owed(log)[0];
    if (next === undefined) return { turnsRun, log };
    log.push(...turn(next.agent));
    turnsRun.set(next.agent, (turnsRun.get(next.agent) ?? 0) + 1);
  }
  throw new Error('owedTurns never settled');
}

describe('owedTurns: every turn a lane owes, from the log alone', () => {
  it('owes each message its own turn: two messages stored before one turn still owe a second', () => {
    expect(owed([...ACTIVE, message('criativo'), message('criativo')])).toEqual([
      { agent: 'criativo', reasons: ['message'] },
    ]);
    expect(
      owedAgents([...ACTIVE, message('criativo'), message('criativo'), ...turn('criativo')]),
    ).toEqual(['criativo']);
    expect(
      owed([
        ...ACTIVE,
        message('criativo'),
        message('criativo'),
        ...turn('criativo'),
        ...turn('criativo'),
      ]),
    ).toEqual([]);
  });

  it('owes a kickoff, an unblock, a failed merge and a block to the Arquiteto, each until a turn of the lane', () => {
    expect(owed([...ACTIVE, activated('po', 'h1')])).toEqual([
      { agent: 'po', reasons: ['kickoff'] },
    ]);
    expect(owed([...ACTIVE, unblocked('dev:a'), mergeFailed('dev:b')])).toEqual([
      { agent: 'dev:a', reasons: ['unblocked'] },
      { agent: 'dev:b', reasons: ['merge_failed'] },
    ]);
    expect(owed([...ACTIVE, unblocked('dev:a'), ...turn('dev:a')])).toEqual([]);
    expect(owed([...ACTIVE, blocked('dev:a')])).toEqual([
      { agent: 'arquiteto', reasons: ['block'] },
    ]);
    expect(owed([...ACTIVE, blocked('dev:a'), ...turn('arquiteto')])).toEqual([]);
  });

  it('owes nothing to a lane with no runtime in this process', () => {
    expect(owed([...ACTIVE, message('criativo')], (agent) => agent !== 'criativo')).toEqual([]);
  });

  it('matches the hand-walked reference on any log', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const reference = stillOwed(steps);
        const found = new Map(
          owed([...ACTIVE, ...specsOf(steps)]).map((entry) => [entry.agent, entry]),
        );
        for (const agent of AGENTS) expect(found.has(agent)).toBe(reference.get(agent)! > 0);
      }),
    );
  });

  it('running what it names, until it names nothing, runs each owed turn exactly once: none lost, none doubled', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const reference = stillOwed(steps);
        const { turnsRun, log } = drain([...ACTIVE, ...specsOf(steps)]);
        for (const agent of AGENTS) expect(turnsRun.get(agent) ?? 0).toBe(reference.get(agent));
        // A second start-up (or a second process) looking at the same log finds nothing more to run.
        expect(drain(log).turnsRun.size).toBe(0);
      }),
    );
  });

  it("is each lane's own: what one lane is told never changes what another owes", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), step, (steps, extra) => {
        const before = owed([...ACTIVE, ...specsOf(steps)]);
        const after = owed([...ACTIVE, ...specsOf([...steps, extra])]);
        const others = (entries: OwedTurn[]) =>
          entries.filter((entry) => entry.agent !== extra.agent);
        expect(new Map(others(after).map((e) => [e.agent, e.reasons]))).toEqual(
          new Map(others(before).map((e) => [e.agent, e.reasons])),
        );
      }),
    );
  });
});
