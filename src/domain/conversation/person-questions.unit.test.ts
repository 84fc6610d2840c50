import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decisionsByHandoff } from './handoff-decisions.ts';
import { checkAnswer, openQuestionsCheck, type PersonQuestion } from './person-questions.ts';
import { rehydrate } from './rehydrate.ts';
import { buildSessionEvents, type EventSpec } from './test-support/build-session-events.ts';

const question = (id: string, status: 'asked' | 'answered'): PersonQuestion => ({
  question_id: id,
  tool_call_id: `call-${id}`,
  agent: 'po',
  turn_id: 't1',
  question: `${id}?`,
  options: [],
  why: null,
  seq: 1,
  status,
  answer: status === 'answered' ? 'yes' : null,
  decide_yourself: false,
});

describe('answering a question', () => {
  it('is 404 for an unknown id, 409 once answered, and otherwise records the trimmed answer or "decide yourself"', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.uuid(), { minLength: 1, maxLength: 5 }),
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        fc.uuid(),
        fc.oneof(
          fc.string({ minLength: 1 }).map((answer) => ({ answer: ` ${answer} ` })),
          fc.constant({ decide_yourself: true as const }),
        ),
        (ids, answeredFlags, probe, reply) => {
          const questions = ids.map((id, index) =>
            question(id, answeredFlags[index] ? 'answered' : 'asked'),
          );
          const target = questions.find((candidate) => candidate.question_id === probe);
          const checked = checkAnswer(questions, probe, reply);
          if (target === undefined) expect(checked).toMatchObject({ ok: false, status: 404 });
          for (const known of questions) {
            const outcome = checkAnswer(questions, known.question_id, reply);
            if (known.status === 'answered')
              expect(outcome).toMatchObject({ ok: false, status: 409, code: 'already_answered' });
            else
              expect(outcome).toMatchObject({
                ok: true,
                payload: {
                  question_id: known.question_id,
                  agent: 'po',
                  decide_yourself: 'decide_yourself' in reply,
                  answer: 'answer' in reply ? reply.answer.trim() : '',
                },
              });
          }
        },
      ),
    );
  });

  it('folds one answer per question: a second person.answered changes nothing', () => {
    const specs: EventSpec[] = [
      {
        type: 'person.asked',
        actor: 'po',
        payload: {
          v: 1,
          question_id: 'q1',
          tool_call_id: 'c1',
          agent: 'po',
          turn_id: 't1',
          question: 'Preço?',
          options: ['R$ 30'],
        },
      },
      {
        type: 'person.answered',
        actor: 'user',
        payload: { v: 1, question_id: 'q1', agent: 'po', answer: 'R$ 30', decide_yourself: false },
      },
      {
        type: 'person.answered',
        actor: 'user',
        payload: { v: 1, question_id: 'q1', agent: 'po', answer: '', decide_yourself: true },
      },
    ];
    expect(rehydrate(buildSessionEvents('s1', specs)).questions).toMatchObject([
      {
        question_id: 'q1',
        status: 'answered',
        answer: 'R$ 30',
        decide_yourself: false,
        options: ['R$ 30'],
      },
    ]);
  });
});

describe('the decisions on a handoff', () => {
  const decision = (decidedBy: string, question: string): EventSpec => ({
    type: 'artifact.decision',
    actor: decidedBy === 'person' ? 'po' : decidedBy,
    payload: { v: 1, data: { question, answer: 'a', decided_by: decidedBy, reason: 'r' } },
  });
  const offered = (id: string, from: string): EventSpec => ({
    type: 'handoff.offered',
    actor: from,
    payload: {
      v: 1,
      handoff_id: id,
      from_agent: from,
      to_agent: 'x',
      artifact_id: null,
      status: 'offered',
    },
  });

  it("puts each agent's own decisions on the first handoff it offers after them, never the person's", () => {
    const events = buildSessionEvents('s1', [
      decision('po', 'one'),
      decision('person', 'by the person'),
      decision('arquiteto', 'theirs'),
      offered('h1', 'po'),
      decision('po', 'two'),
      offered('h2', 'po'),
      offered('h3', 'arquiteto'),
    ]);
    const byHandoff = decisionsByHandoff(events);
    const questions = (id: string) => byHandoff.get(id)?.map((entry) => entry.question);
    expect(questions('h1')).toEqual(['one']);
    expect(questions('h2')).toEqual(['two']);
    expect(questions('h3')).toEqual(['theirs']);
  });
});

describe("closing the brief's open questions", () => {
  const decision = (recordedBy: string, questionId?: string) => ({
    recorded_by: recordedBy,
    ...(questionId === undefined ? {} : { question_id: questionId }),
  });
  const answeredBy = (id: string, decideYourself: boolean): PersonQuestion => ({
    ...question(id, 'answered'),
    decide_yourself: decideYourself,
  });

  it("counts the person's answers and the agent's own decisions once each, never another agent's, and lists what waits", () => {
    const check = openQuestionsCheck(
      ['a?', 'b?', 'c?'],
      [answeredBy('q1', false), answeredBy('q2', true), question('q3', 'asked')],
      [decision('po', 'q1'), decision('po', 'q2'), decision('arquiteto')],
      'po',
    );
    // q1 by the person (its decision counts once), q2 decided by the PO; the Arquiteto's is not the PO's.
    expect(check.closed).toBe(2);
    expect(check.waiting.map((waiting) => waiting.question_id)).toEqual(['q3']);
    expect(openQuestionsCheck([], [], [], 'po')).toEqual({ open: [], closed: 0, waiting: [] });
  });
});
