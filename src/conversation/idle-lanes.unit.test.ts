import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rehydrate } from '../domain/conversation/index.ts';
import {
  buildSessionEvents,
  type EventSpec,
} from '../domain/conversation/test-support/build-session-events.ts';
import { idleLanes, nudgeText } from './idle-lanes.ts';

const MODULES = ['a', 'b'] as const;
const TASKS = MODULES.flatMap((module) => [
  { id: `${module}-1`, title: `Primeira de ${module}`, module },
  { id: `${module}-2`, title: `Segunda de ${module}`, module },
]);

/** Where one dev lane stands, each fact on its own. */
type LaneFacts = {
  activated: boolean;
  /** A turn of its own has run since it was activated (a kickoff is owed until then). */
  hadTurn: boolean;
  running: boolean;
  messageWaiting: boolean;
  blockOpen: boolean;
  finished: [boolean, boolean];
};

const laneFacts: fc.Arbitrary<LaneFacts> = fc.record({
  activated: fc.boolean(),
  hadTurn: fc.boolean(),
  running: fc.boolean(),
  messageWaiting: fc.boolean(),
  blockOpen: fc.boolean(),
  finished: fc.tuple(fc.boolean(), fc.boolean()),
});

let turns = 0;
function laneEvents(module: string, facts: LaneFacts): EventSpec[] {
  const agent = `dev:${module}`;
  if (!facts.activated) return [];
  const started = (): EventSpec => {
    turns += 1;
    return {
      type: 'turn.started',
      actor: agent,
      payload: { v: 1, agent, turn_id: `t${turns}`, kind: 'message' },
    };
  };
  const answered = (): EventSpec => ({
    type: 'agent.response',
    actor: agent,
    payload: { v: 1, agent, turn_id: `t${turns}`, text: 'feito' },
  });
  const specs: EventSpec[] = [
    { type: 'agent.activated', payload: { v: 1, agent, handoff_id: `h-${module}` } },
  ];
  if (facts.hadTurn) specs.push(started());
  facts.finished.forEach((done, index) => {
    if (done)
      specs.push({
        type: 'dev.task_finished',
        actor: agent,
        payload: {
          v: 1,
          agent,
          module,
          task_id: `${module}-${index + 1}`,
          summary: 'feito',
          branch: `dev-${module}`,
          commit: 'c0ffee',
          files: [],
        },
      });
  });
  if (facts.blockOpen)
    specs.push({
      type: 'dev.blocked',
      actor: agent,
      payload: { v: 1, agent, module, modulo: module, falta: 'o contrato' },
    });
  if (facts.hadTurn) specs.push(answered());
  if (facts.running) specs.push(started());
  if (facts.messageWaiting)
    specs.push({
      type: 'chat.message',
      actor: 'user',
      payload: { v: 1, text: 'e aí?', to: agent },
    });
  return specs;
}

describe('idle dev lanes', () => {
  it('lists a lane exactly when it is active, has had its turn, runs none, owes none, has no open block and has a task unfinished', () => {
    fc.assert(
      fc.property(fc.tuple(laneFacts, laneFacts), (lanes) => {
        const specs = MODULES.flatMap((module, index) => laneEvents(module, lanes[index]!));
        const events = buildSessionEvents('s1', specs);
        const idle = idleLanes(rehydrate(events), events, TASKS, () => true);
        const expected = MODULES.flatMap((module, index) => {
          const facts = lanes[index]!;
          const unfinished = TASKS.filter(
            (task) => task.module === module && !facts.finished[Number(task.id.at(-1)) - 1],
          ).map(({ id, title }) => ({ id, title }));
          const isIdle =
            facts.activated &&
            facts.hadTurn &&
            !facts.running &&
            !facts.messageWaiting &&
            !facts.blockOpen &&
            unfinished.length > 0;
          return isIdle ? [{ agent: `dev:${module}`, module, unfinished }] : [];
        });
        expect(idle).toEqual(expected);
      }),
    );
  });

  it('lists no lane of an ended session', () => {
    const specs = [
      ...laneEvents('a', {
        activated: true,
        hadTurn: true,
        running: false,
        messageWaiting: false,
        blockOpen: false,
        finished: [false, false],
      }),
    ];
    const events = buildSessionEvents('s1', specs);
    expect(idleLanes(rehydrate(events), events, TASKS, () => true)).toHaveLength(1);
    const ended = buildSessionEvents('s1', [
      ...specs,
      { type: 'session.ended', payload: { v: 1 } },
    ]);
    expect(idleLanes(rehydrate(ended), ended, TASKS, () => true)).toEqual([]);
  });

  it('names every unfinished task in the nudge, once', () => {
    const text = nudgeText({
      agent: 'dev:a',
      module: 'a',
      unfinished: [
        { id: 'a-1', title: 'Primeira' },
        { id: 'a-2', title: 'Segunda' },
      ],
    });
    expect(text).toContain('módulo a');
    expect(text.match(/^- a-1 — Primeira$/gm)).toHaveLength(1);
    expect(text.match(/^- a-2 — Segunda$/gm)).toHaveLength(1);
  });
});
