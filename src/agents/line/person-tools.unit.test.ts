import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rehydrate } from '../../domain/conversation/index.ts';
import {
  buildSessionEvents,
  type EventSpec,
} from '../../domain/conversation/test-support/build-session-events.ts';
import type { ToolContext } from '../runtime/agent-tool.ts';
import { askPersonTool } from './ask-person-tool.ts';
import { recordDecisionTool } from './record-decision-tool.ts';

const ASKED: EventSpec = {
  type: 'person.asked',
  actor: 'po',
  payload: {
    v: 1,
    question_id: 'q1',
    tool_call_id: 'c1',
    agent: 'po',
    turn_id: 't1',
    question: 'Preço?',
  },
};
const answered = (reply: { answer: string; decide_yourself: boolean }): EventSpec => ({
  type: 'person.answered',
  actor: 'user',
  payload: { v: 1, question_id: 'q1', agent: 'po', ...reply },
});
const MESSAGE: EventSpec = { type: 'chat.message', actor: 'user', payload: { v: 1, text: 'oi' } };

const contextOf = (specs: EventSpec[], toolCallId = 'c9'): ToolContext => {
  const events = buildSessionEvents('s1', specs);
  return {
    projectId: 'p1',
    sessionId: 's1',
    agent: 'po',
    module: null,
    toolCallId,
    state: rehydrate(events),
    events,
    ignoredArguments: [],
  };
};

describe('ask_person', () => {
  const tool = askPersonTool();

  it('asks only a question its schema takes, refusing NUL and empty text by field', () => {
    expect(tool.asksPerson?.({ question: ' Preço? ', options: [], why: 'o plano' })).toEqual({
      question: 'Preço?',
      why: 'o plano',
    });
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, after) => {
        const question = `${before}\u0000${after}`;
        expect(tool.asksPerson?.({ question })).toBeUndefined();
      }),
    );
    expect(tool.asksPerson?.({ question: '   ' })).toBeUndefined();
    expect(tool.asksPerson?.({ question: 'x', options: Array(11).fill('a') })).toBeUndefined();
  });

  it('answers its call with the answer, or with "decide yourself", once the person answered', async () => {
    expect(await tool.run({ question: 'Preço?' }, contextOf([ASKED], 'c1'))).toMatchObject({
      ok: false,
    });
    expect(
      await tool.run(
        { question: 'Preço?' },
        contextOf([ASKED, answered({ answer: 'R$ 30', decide_yourself: false })], 'c1'),
      ),
    ).toEqual({ ok: true, result: 'The person answered "Preço?": R$ 30' });
    const decide = await tool.run(
      { question: 'Preço?' },
      contextOf([ASKED, answered({ answer: '', decide_yourself: true })], 'c1'),
    );
    expect(decide.result).toContain('The person asked you to decide yourself: "Preço?"');
  });
});

describe('record_decision', () => {
  const tool = recordDecisionTool();
  const args = { question: 'Preço?', answer: 'R$ 30', reason: 'média do bairro' };
  const decidedBy = async (specs: EventSpec[], extra: Record<string, unknown> = {}) => {
    const outcome = await tool.run({ ...args, ...extra }, contextOf(specs));
    if (!outcome.ok) return outcome.result;
    const payload = outcome.events?.[0]?.payload as { data: { decided_by: string } } | undefined;
    return payload?.data.decided_by;
  };

  it('says who decided from the log, never from the model', async () => {
    expect(await decidedBy([])).toBe('po');
    expect(
      await decidedBy([ASKED, answered({ answer: 'R$ 30', decide_yourself: false })], {
        question_id: 'q1',
      }),
    ).toBe('person');
    expect(
      await decidedBy([ASKED, answered({ answer: '', decide_yourself: true })], {
        question_id: 'q1',
      }),
    ).toBe('po');
    expect(await decidedBy([ASKED], { question_id: 'q1' })).toContain('still waits');
    expect(await decidedBy([], { question_id: 'q7' })).toContain('not a question of this session');
    expect(await decidedBy([], { decided_by: 'person' })).toContain('decided_by');
  });

  it('cites only messages of the session as its origin', async () => {
    expect(await decidedBy([MESSAGE], { origin: [1] })).toBe('po');
    expect(await decidedBy([MESSAGE], { origin: [5] })).toContain('origin: seq 5');
  });
});
