import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSessionEvents } from '../../domain/conversation/test-support/build-session-events.ts';
import { decideHypothesisAnswer } from './decide-hypothesis-answer.ts';

const proposed = (id: string) => ({
  type: 'hypothesis.proposed',
  actor: 'psicologo',
  payload: {
    v: 1,
    hypothesis_id: id,
    statement: 's',
    evidence: [1],
    trigger: { kind: 'session.ended', reason: 'completed' },
    rag: { degraded: false },
  },
});

describe('decideHypothesisAnswer', () => {
  it('accepts or dismisses a proposed hypothesis with an event by the person', () => {
    const events = buildSessionEvents('s', [proposed('h1')]);
    expect(decideHypothesisAnswer(events, 'h1', 'accept')).toEqual({
      ok: true,
      event: { type: 'hypothesis.accepted', actor: 'user', payload: { v: 1, hypothesis_id: 'h1' } },
    });
    expect(decideHypothesisAnswer(events, 'h1', 'dismiss')).toMatchObject({
      ok: true,
      event: { type: 'hypothesis.dismissed' },
    });
  });

  it('refuses an unknown hypothesis and a second answer, naming the first', () => {
    const events = buildSessionEvents('s', [
      proposed('h1'),
      { type: 'hypothesis.dismissed', actor: 'user', payload: { v: 1, hypothesis_id: 'h1' } },
    ]);
    expect(decideHypothesisAnswer(events, 'h2', 'accept')).toMatchObject({
      ok: false,
      problem: 'not_found',
    });
    expect(decideHypothesisAnswer(events, 'h1', 'accept')).toEqual({
      ok: false,
      problem: 'already_answered',
      reason: 'Hypothesis h1 was already dismissed (event #2); an answer is given once.',
    });
  });

  it('answers each hypothesis at most once, whatever the sequence of answers', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('h1', 'h2', 'h3'),
            fc.constantFrom('accept' as const, 'dismiss' as const),
          ),
          { maxLength: 12 },
        ),
        (answers) => {
          let events = buildSessionEvents('s', [proposed('h1'), proposed('h2')]);
          for (const [id, answer] of answers) {
            const decision = decideHypothesisAnswer(events, id, answer);
            if (decision.ok) events = buildSessionEvents('s', [...events, decision.event]);
          }
          const answered = events
            .filter((event) => event.type !== 'hypothesis.proposed')
            .map((event) => (event.payload as { hypothesis_id: string }).hypothesis_id);
          expect(new Set(answered).size).toBe(answered.length);
          expect(answered).not.toContain('h3');
        },
      ),
    );
  });
});
