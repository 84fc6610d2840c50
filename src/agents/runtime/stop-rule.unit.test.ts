import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rehydrate } from '../../domain/conversation/index.ts';
import {
  buildSessionEvents,
  type EventSpec,
} from '../../domain/conversation/test-support/build-session-events.ts';
import { nextStep } from './next-step.ts';
import { endsWithoutModelCall, type RuleResult } from './stop-rule.ts';

const RECORDS = new Set(['emit_artifact', 'record_x']);
const recordsOnly = (tool: string) => RECORDS.has(tool);
const rule = (id: string) => ({ id, name: 'emit_artifact' });

describe('endsWithoutModelCall', () => {
  it('ends an answer that spoke and whose record calls are all recorded ok', () => {
    const response = { text: 'Anotei.', tool_calls: [rule('c1'), { id: 'c2', name: 'record_x' }] };
    const results = [
      { tool_call_id: 'c1', ok: true },
      { tool_call_id: 'c2', ok: true },
    ];
    expect(endsWithoutModelCall(response, results, recordsOnly)).toBe(true);
  });

  it('calls the model again for a refusal, a blank answer, a tool to read, a call not answered, no call', () => {
    const ok = [{ tool_call_id: 'c1', ok: true }];
    expect(
      endsWithoutModelCall(
        { text: 'Anotei.', tool_calls: [rule('c1')] },
        [{ tool_call_id: 'c1', ok: false }],
        recordsOnly,
      ),
    ).toBe(false);
    expect(endsWithoutModelCall({ text: '  \n', tool_calls: [rule('c1')] }, ok, recordsOnly)).toBe(
      false,
    );
    expect(
      endsWithoutModelCall(
        { text: 'Leio.', tool_calls: [{ id: 'c1', name: 'read_file' }] },
        ok,
        recordsOnly,
      ),
    ).toBe(false);
    expect(
      endsWithoutModelCall(
        { text: 'Anotei.', tool_calls: [rule('c1'), rule('c2')] },
        ok,
        recordsOnly,
      ),
    ).toBe(false);
    expect(endsWithoutModelCall({ text: 'Oi.' }, [], recordsOnly)).toBe(false);
  });

  const call = fc.record({
    id: fc.constantFrom('c1', 'c2', 'c3'),
    name: fc.constantFrom('emit_artifact', 'record_x', 'read_file', 'terminal'),
  });
  const result = fc.record({ tool_call_id: fc.constantFrom('c1', 'c2', 'c3'), ok: fc.boolean() });
  const text = fc.constantFrom('', ' ', 'Anotei.', '\n ok');

  it('holds exactly when text is not blank and every call records only, with results all ok', () => {
    fc.assert(
      fc.property(
        text,
        fc.array(call, { maxLength: 3 }),
        fc.array(result, { maxLength: 4 }),
        (said, calls, results) => {
          const expected =
            said.trim() !== '' &&
            calls.length > 0 &&
            calls.every((one) => {
              const own = results.filter((r) => r.tool_call_id === one.id);
              return RECORDS.has(one.name) && own.length > 0 && own.every((r) => r.ok);
            });
          expect(
            endsWithoutModelCall({ text: said, tool_calls: calls }, results, recordsOnly),
          ).toBe(expected);
        },
      ),
    );
  });

  it('never ends once any result of the answer is a refusal, whatever else holds', () => {
    fc.assert(
      fc.property(
        text,
        fc.array(call, { minLength: 1, maxLength: 3 }),
        fc.array(result, { maxLength: 4 }),
        (said, calls, results) => {
          const refused: RuleResult = { tool_call_id: calls[0]!.id, ok: false };
          expect(
            endsWithoutModelCall(
              { text: said, tool_calls: calls },
              [...results, refused],
              () => true,
            ),
          ).toBe(false);
        },
      ),
    );
  });
});

const TURN = 't1';
const started: EventSpec = {
  type: 'turn.started',
  actor: 'criativo',
  payload: { v: 1, agent: 'criativo', turn_id: TURN, kind: 'message' },
};
const answer: EventSpec = {
  type: 'agent.response',
  actor: 'criativo',
  payload: {
    v: 1,
    agent: 'criativo',
    turn_id: TURN,
    text: 'Anotei.',
    tool_calls: [{ id: 'c1', name: 'emit_artifact', arguments: {} }],
  },
};
const recorded = (ok: boolean): EventSpec => ({
  type: 'tool.completed',
  actor: 'criativo',
  payload: {
    v: 1,
    agent: 'criativo',
    tool_call_id: 'c1',
    tool: 'emit_artifact',
    args: {},
    ok,
    result: 'r',
  },
});
const stateOf = (...specs: EventSpec[]) => rehydrate(buildSessionEvents('s1', specs));
const stepOf = (specs: EventSpec[], recordTools?: ReadonlySet<string>) =>
  nextStep(stateOf(...specs), {
    agent: 'criativo',
    maxIterations: 1,
    needsApproval: () => false,
    ...(recordTools ? { recordTools } : {}),
  });

describe('nextStep with the stop rule', () => {
  it('completes the turn on its answer once the record call is recorded ok, even at the ceiling', () => {
    const step = stepOf([started, answer, recorded(true)], new Set(['emit_artifact']));
    expect(step).toMatchObject({ kind: 'complete', answer: { text: 'Anotei.' } });
  });

  it('calls the model (here: its ceiling) when the record failed or the tool is not a record tool', () => {
    expect(stepOf([started, answer, recorded(false)], new Set(['emit_artifact'])).kind).toBe(
      'limit_reached',
    );
    expect(stepOf([started, answer, recorded(true)]).kind).toBe('limit_reached');
  });

  it('closes the turn in the fold with turn.completed: the answer is the lane end', () => {
    const response = stateOf(started, answer, recorded(true));
    const answerId = response.history.find((entry) => entry.role === 'assistant')!.event_id;
    const ended = stateOf(started, answer, recorded(true), {
      type: 'turn.completed',
      actor: 'criativo',
      payload: { v: 1, agent: 'criativo', turn_id: TURN, answer_event_id: answerId },
    });
    expect(ended.turns_in_progress).toEqual([]);
    expect(ended.lane_ends).toEqual([
      expect.objectContaining({
        agent: 'criativo',
        outcome: 'answered',
        answer_event_id: answerId,
        used_tools: true,
      }),
    ]);
    expect(
      stepOf(
        [
          started,
          answer,
          recorded(true),
          {
            type: 'turn.completed',
            actor: 'criativo',
            payload: { v: 1, agent: 'criativo', turn_id: TURN, answer_event_id: answerId },
          },
        ],
        new Set(['emit_artifact']),
      ),
    ).toEqual({ kind: 'done' });
  });
});
