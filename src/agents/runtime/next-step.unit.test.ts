import { describe, expect, it } from 'vitest';
import { rehydrate } from '../../domain/conversation/index.ts';
import {
  buildSessionEvents,
  type EventSpec,
} from '../../domain/conversation/test-support/build-session-events.ts';
import { nextStep } from './next-step.ts';

const TURN = 't1';
const started: EventSpec = {
  type: 'turn.started',
  actor: 'dev',
  payload: { v: 1, agent: 'dev', turn_id: TURN, kind: 'message' },
};
const response = (calls: Array<{ id: string; name: string }>, text = ''): EventSpec => ({
  type: 'agent.response',
  actor: 'dev',
  payload: {
    v: 1,
    agent: 'dev',
    turn_id: TURN,
    text,
    ...(calls.length > 0 ? { tool_calls: calls.map((call) => ({ ...call, arguments: {} })) } : {}),
  },
});
const completed = (id: string): EventSpec => ({
  type: 'tool.completed',
  actor: 'dev',
  payload: { v: 1, agent: 'dev', tool_call_id: id, tool: 'x', args: {}, ok: true, result: 'ok' },
});
const proposedAction = (actionId: string, callId: string): EventSpec => ({
  type: 'action.proposed',
  actor: 'dev',
  payload: {
    v: 1,
    action_id: actionId,
    tool_call_id: callId,
    agent: 'dev',
    tool: 'terminal',
    args: {},
  },
});
const approved = (actionId: string): EventSpec => ({
  type: 'action.approved',
  actor: 'user',
  payload: { v: 1, action_id: actionId },
});

const given = (...specs: EventSpec[]) =>
  rehydrate(
    buildSessionEvents('s1', [
      {
        type: 'agent.activated',
        actor: 'system',
        payload: { v: 1, agent: 'dev', handoff_id: 'h1' },
      },
      ...specs,
    ]),
  );
const decideFor = (specs: EventSpec[], maxIterations = 5) =>
  nextStep(given(...specs), {
    agent: 'dev',
    maxIterations,
    needsApproval: (call) => call.name === 'terminal',
  });

describe('nextStep', () => {
  it('is done when no turn of the agent is in progress', () => {
    expect(decideFor([])).toEqual({ kind: 'done' });
    expect(decideFor([started, response([])])).toEqual({ kind: 'done' });
  });

  it('calls the model first, and again once every tool call has its result', () => {
    expect(decideFor([started])).toEqual({ kind: 'call_model', iteration: 1 });
    expect(
      decideFor([started, response([{ id: 'c1', name: 'read_file' }]), completed('c1')]),
    ).toEqual({ kind: 'call_model', iteration: 2 });
  });

  it('runs the first direct call without a result, in order', () => {
    const step = decideFor([
      started,
      response([
        { id: 'c1', name: 'read_file' },
        { id: 'c2', name: 'write_file' },
      ]),
      completed('c1'),
    ]);
    expect(step).toMatchObject({
      kind: 'run_tool',
      call: { id: 'c2', name: 'write_file' },
      approvedAction: null,
    });
  });

  it('proposes a proposed tool, waits for the person, and runs it once approved', () => {
    const call = [{ id: 'c1', name: 'terminal' }];
    expect(decideFor([started, response(call)])).toMatchObject({
      kind: 'propose',
      call: { id: 'c1' },
    });
    expect(decideFor([started, response(call), proposedAction('a1', 'c1')])).toMatchObject({
      kind: 'await_approval',
      actions: [{ action_id: 'a1' }],
    });
    expect(
      decideFor([started, response(call), proposedAction('a1', 'c1'), approved('a1')]),
    ).toMatchObject({ kind: 'run_tool', approvedAction: { action_id: 'a1' } });
    expect(
      decideFor([
        started,
        response(call),
        proposedAction('a1', 'c1'),
        approved('a1'),
        completed('c1'),
      ]),
    ).toEqual({ kind: 'call_model', iteration: 2 });
  });

  it('runs direct calls before waiting on a proposed one', () => {
    const step = decideFor([
      started,
      response([
        { id: 'c1', name: 'terminal' },
        { id: 'c2', name: 'read_file' },
      ]),
      proposedAction('a1', 'c1'),
    ]);
    expect(step).toMatchObject({ kind: 'run_tool', call: { id: 'c2' } });
  });

  it('stops at the ceiling', () => {
    const specs = [
      started,
      response([{ id: 'c1', name: 'read_file' }]),
      completed('c1'),
      response([{ id: 'c2', name: 'read_file' }]),
      completed('c2'),
    ];
    expect(decideFor(specs, 2)).toEqual({ kind: 'limit_reached', iterations: 2 });
  });
});

describe('nextStep with questions for the person', () => {
  const asked = (questionId: string, callId: string): EventSpec => ({
    type: 'person.asked',
    actor: 'dev',
    payload: {
      v: 1,
      question_id: questionId,
      tool_call_id: callId,
      agent: 'dev',
      turn_id: TURN,
      question: `question ${questionId}?`,
    },
  });
  const answered = (questionId: string): EventSpec => ({
    type: 'person.answered',
    actor: 'user',
    payload: { v: 1, question_id: questionId, agent: 'dev', answer: 'yes', decide_yourself: false },
  });
  const ask = (specs: EventSpec[]) =>
    nextStep(given(...specs), {
      agent: 'dev',
      maxIterations: 5,
      needsApproval: () => false,
      questionTools: new Set(['ask_person']),
    });
  const twoQuestions = response([
    { id: 'c1', name: 'ask_person' },
    { id: 'c2', name: 'ask_person' },
  ]);

  it('asks each question once, then waits for every one while none is answered', () => {
    expect(ask([started, twoQuestions])).toMatchObject({ kind: 'ask_person', call: { id: 'c1' } });
    expect(ask([started, twoQuestions, asked('q1', 'c1')])).toMatchObject({
      kind: 'ask_person',
      call: { id: 'c2' },
    });
    expect(ask([started, twoQuestions, asked('q1', 'c1'), asked('q2', 'c2')])).toMatchObject({
      kind: 'await_approval',
      actions: [],
      questions: [{ question_id: 'q1' }, { question_id: 'q2' }],
    });
  });

  it('answers an answered question (the tool runs), and calls the model only once all are answered', () => {
    const both = [started, twoQuestions, asked('q1', 'c1'), asked('q2', 'c2')];
    expect(ask([...both, answered('q2')])).toMatchObject({
      kind: 'run_tool',
      call: { id: 'c2' },
    });
    expect(ask([...both, answered('q2'), completed('c2')])).toMatchObject({
      kind: 'await_approval',
      questions: [{ question_id: 'q1' }],
    });
    expect(
      ask([...both, answered('q2'), completed('c2'), answered('q1'), completed('c1')]),
    ).toEqual({ kind: 'call_model', iteration: 2 });
  });

  it("ignores another lane's questions", () => {
    const other: EventSpec = {
      ...asked('q9', 'c1'),
      payload: { ...(asked('q9', 'c1').payload as object), agent: 'po' },
    };
    expect(ask([started, response([{ id: 'c1', name: 'ask_person' }]), other])).toMatchObject({
      kind: 'ask_person',
      call: { id: 'c1' },
    });
  });
});
