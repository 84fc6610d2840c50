import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConversationCommand } from './commands.ts';
import { initialState, type ConversationState } from './conversation-state.ts';
import { decide } from './decide.ts';
import { evolve } from './evolve.ts';
import type { NewSessionEvent, SessionEvent } from './session-event.ts';
import { eventIdForSeq } from './test-support/build-session-events.ts';
import { canRegenerate, canRetry, canStop, stopRequestedBy } from './turn-control.ts';

/**
 * Model-based check of Stop, Retry and Regenerate (ADR 0220): random steps by the person and by two agents'
 * lanes, folded as the store would. Whatever the order, each control keeps its rule and touches only its lane.
 */
type Step =
  | { kind: 'message'; agent: string }
  | { kind: 'start'; agent: string }
  | { kind: 'answer'; agent: string; tools: boolean }
  | { kind: 'fail'; agent: string }
  | { kind: 'stop'; pick: number; text: string }
  | { kind: 'retry'; pick: number }
  | { kind: 'regenerate'; pick: number };

const agent = fc.constantFrom('criativo', 'po');
const pick = fc.nat({ max: 20 });
// Weighted so lanes often end with an answer, a failure or a tool-using turn that a control then meets.
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 1, arbitrary: agent.map((agent) => ({ kind: 'message' as const, agent })) },
  { weight: 3, arbitrary: agent.map((agent) => ({ kind: 'start' as const, agent })) },
  {
    weight: 4,
    arbitrary: fc
      .record({ agent, tools: fc.boolean() })
      .map((s) => ({ kind: 'answer' as const, ...s })),
  },
  { weight: 1, arbitrary: agent.map((agent) => ({ kind: 'fail' as const, agent })) },
  {
    weight: 1,
    arbitrary: fc
      .record({ pick, text: fc.constantFrom('', 'Half an') })
      .map((s) => ({ kind: 'stop' as const, ...s })),
  },
  { weight: 2, arbitrary: pick.map((pick) => ({ kind: 'retry' as const, pick })) },
  { weight: 2, arbitrary: pick.map((pick) => ({ kind: 'regenerate' as const, pick })) },
);
const stepLists = fc.array(step, { minLength: 10, maxLength: 40 });

const RULES =
  /^(turn_not_running|turn_awaits_approval|turn_awaits_answer|consolidation_turn|not_last_turn|turn_not_failed|lane_busy|agent_not_active|answer_used_tools|no_answer|person_wrote_after): /;

type Checked = {
  command: ConversationCommand;
  before: ConversationState;
  after: ConversationState;
  ok: boolean;
  reason?: string;
};

function run(steps: readonly Step[]) {
  const log: SessionEvent[] = [];
  const turnIds: string[] = [];
  const checked: Checked[] = [];
  let state = initialState();
  const append = (events: readonly NewSessionEvent[]) => {
    for (const event of events) {
      const seq = log.length + 1;
      const stored = {
        ...event,
        id: eventIdForSeq(seq),
        session_id: 's',
        seq,
        created_at: `t${seq}`,
      };
      log.push(stored);
      state = evolve(state, stored);
    }
  };
  const lane = (agent: string) => state.turns_in_progress.find((turn) => turn.agent === agent);
  for (const name of ['criativo', 'po'])
    append([
      { type: 'agent.activated', actor: 'user', payload: { v: 1, agent: name, handoff_id: null } },
    ]);
  const control = (command: ConversationCommand) => {
    const before = state;
    const decision = decide(command, state);
    if (decision.ok) append(decision.events);
    checked.push({
      command,
      before,
      after: state,
      ok: decision.ok,
      ...(decision.ok ? {} : { reason: decision.reason }),
    });
  };
  for (const [index, s] of steps.entries()) {
    const id = `t${index}`;
    // Mostly one of the latest turns (the ones a control can act on), sometimes an older one.
    const at = (pick: number) => turnIds[Math.max(0, turnIds.length - 1 - (pick % 4))] ?? 'none';
    if (s.kind === 'message')
      append([{ type: 'chat.message', actor: 'user', payload: { v: 1, text: 'hi', to: s.agent } }]);
    else if (s.kind === 'start') {
      const decision = decide(
        { type: 'StartTurn', agent: s.agent, turn_id: id, kind: 'message' },
        state,
      );
      if (decision.ok) {
        turnIds.push(id);
        append(decision.events);
      }
    } else if (s.kind === 'answer' || s.kind === 'fail') {
      const turn = lane(s.agent);
      if (turn === undefined) continue;
      const lanePart = { agent: s.agent, turn_id: turn.turn_id };
      if (s.kind === 'fail')
        append([
          {
            type: 'turn.failed',
            actor: 'system',
            payload: { v: 1, ...lanePart, reason: 'provider_error' },
          },
        ]);
      else if (s.tools)
        append([
          {
            type: 'agent.response',
            actor: s.agent,
            payload: {
              v: 1,
              ...lanePart,
              text: '',
              tool_calls: [{ id: `c${index}`, name: 'x', arguments: {} }],
            },
          },
          {
            type: 'tool.completed',
            actor: s.agent,
            payload: {
              v: 1,
              ...lanePart,
              tool_call_id: `c${index}`,
              tool: 'x',
              args: {},
              ok: true,
              result: 'ok',
            },
          },
        ]);
      else
        append([
          {
            type: 'agent.response',
            actor: s.agent,
            payload: { v: 1, ...lanePart, text: 'answer' },
          },
        ]);
    } else if (s.kind === 'stop') control({ type: 'StopTurn', turn_id: at(s.pick), text: s.text });
    else if (s.kind === 'retry') control({ type: 'RetryTurn', turn_id: at(s.pick) });
    else {
      const target = at(s.pick);
      turnIds.push(id);
      control({ type: 'RegenerateAnswer', turn_id: target, new_turn_id: id });
    }
  }
  return { checked, state };
}

const otherLanes = (state: ConversationState, agent: string) =>
  state.turns_in_progress.filter((turn) => turn.agent !== agent);

describe('turn control (ADR 0220)', () => {
  it('keeps one turn per lane, names a rule when it refuses, and leaves the other lanes alone', () => {
    fc.assert(
      fc.property(stepLists, (steps) => {
        const { checked, state } = run(steps);
        const agents = state.turns_in_progress.map((turn) => turn.agent);
        expect(new Set(agents).size).toBe(agents.length);
        for (const { before, after, ok, reason } of checked) {
          if (!ok) {
            expect(reason).toMatch(RULES);
            expect(after).toBe(before);
            continue;
          }
          const changed =
            after.turns_in_progress.find((turn) => !before.turns_in_progress.includes(turn)) ??
            before.turns_in_progress.find((turn) => !after.turns_in_progress.includes(turn));
          if (changed)
            expect(otherLanes(after, changed.agent)).toEqual(otherLanes(before, changed.agent));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('stops only a running turn: its lane is idle after, with the partial text as its last answer', () => {
    fc.assert(
      fc.property(stepLists, (steps) => {
        for (const { command, before, after, ok } of run(steps).checked) {
          if (command.type !== 'StopTurn') continue;
          expect(ok).toBe(canStop(before, command.turn_id).ok);
          if (!ok) continue;
          const turn = before.turns_in_progress.find((t) => t.turn_id === command.turn_id)!;
          expect(after.turns_in_progress.some((t) => t.agent === turn.agent)).toBe(false);
          const end = after.lane_ends.find((e) => e.agent === turn.agent)!;
          expect(end).toMatchObject({ turn_id: turn.turn_id, outcome: 'stopped' });
          expect(after.history.length - before.history.length).toBe(command.text === '' ? 0 : 1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('retries only the last turn of a lane when it failed, as the same turn from its own start', () => {
    fc.assert(
      fc.property(stepLists, (steps) => {
        for (const { command, before, after, ok } of run(steps).checked) {
          if (command.type !== 'RetryTurn') continue;
          expect(ok).toBe(canRetry(before, command.turn_id).ok);
          if (!ok) continue;
          const end = before.lane_ends.find((e) => e.turn_id === command.turn_id)!;
          expect(end.outcome).toBe('failed');
          expect(after.turns_in_progress.at(-1)).toEqual({
            turn_id: end.turn_id,
            agent: end.agent,
            kind: end.kind,
            seq: end.started_seq,
          });
          expect(after.history).toEqual(before.history);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('regenerates only the last plain answer: it leaves the history and a new turn answers the same history', () => {
    fc.assert(
      fc.property(stepLists, (steps) => {
        for (const { command, before, after, ok } of run(steps).checked) {
          if (command.type !== 'RegenerateAnswer') continue;
          expect(ok).toBe(canRegenerate(before, command.turn_id).ok);
          if (!ok) continue;
          const end = before.lane_ends.find((e) => e.turn_id === command.turn_id)!;
          expect(end.used_tools).toBe(false);
          expect(after.history).toEqual(
            before.history.filter((entry) => entry.event_id !== end.answer_event_id),
          );
          expect(after.turns_in_progress.find((t) => t.agent === end.agent)?.turn_id).toBe(
            command.new_turn_id,
          );
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses with the rule: retrying an answered turn, regenerating a turn that used tools', () => {
    const { checked } = run([
      { kind: 'start', agent: 'po' },
      { kind: 'answer', agent: 'po', tools: true },
      { kind: 'answer', agent: 'po', tools: false },
      { kind: 'retry', pick: 0 },
      { kind: 'regenerate', pick: 0 },
    ]);
    expect(checked.map((c) => c.reason?.split(':')[0])).toEqual([
      'turn_not_failed',
      'answer_used_tools',
    ]);
  });

  it('reads a stop request for the current attempt of a turn only', () => {
    const event = (type: string, by?: string) => ({ type, payload: { turn_id: 't1', by } });
    expect(
      stopRequestedBy([event('turn.started'), event('turn.stop_requested', 'ana')], 't1'),
    ).toBe('ana');
    expect(stopRequestedBy([event('turn.started')], 't1')).toBeNull();
    expect(stopRequestedBy([event('turn.stop_requested', 'ana')], 't2')).toBeNull();
    expect(
      stopRequestedBy(
        [
          event('turn.started'),
          event('turn.stop_requested', 'ana'),
          event('turn.failed'),
          event('turn.retried'),
        ],
        't1',
      ),
    ).toBeNull();
  });
});
