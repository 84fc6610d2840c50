import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAnamneseProfile } from '../../domain/memory/index.ts';
import {
  KNOWN_PARAPHRASES,
  personInferenceSentence,
} from '../../domain/memory/test-support/person-inference-sentences.ts';
import { parseHypotheses } from './parse-hypotheses.ts';

const known = new Set([1, 2, 3, 5]);
const answer = (...hypotheses: unknown[]) => JSON.stringify({ hypotheses });

describe('parseHypotheses', () => {
  it('reads hypotheses from plain or fenced JSON, keeping only evidence the session has', () => {
    const text =
      'Aqui está:\n```json\n{"hypotheses": [{"aspect": "decisoes", "statement": "Decide rápido", "evidence": [5, 2, 2, 99]}]}\n```';
    expect(parseHypotheses(text, known)).toEqual({
      hypotheses: [{ aspect: 'decisoes', statement: 'Decide rápido', evidence: [2, 5] }],
      refused: [],
      problems: [],
    });
  });

  it('drops a hypothesis that cites nothing real, and those beyond three', () => {
    const many = [
      { aspect: 'ritmo', statement: 'a', evidence: [99] },
      ...['b', 'c', 'd', 'e'].map((statement) => ({ aspect: 'ritmo', statement, evidence: [1] })),
    ];
    const parsed = parseHypotheses(answer(...many), known);
    expect(parsed.hypotheses.map((hypothesis) => hypothesis.statement)).toEqual(['b', 'c', 'd']);
    expect(parsed.problems).toEqual([
      'hypothesis 1 cites no event of the session',
      'hypothesis 5 is beyond the 3 allowed',
    ]);
  });

  it('takes only hypotheses about how the person works, in the closed shape', () => {
    const parsed = parseHypotheses(
      answer(
        { aspect: 'gostos', statement: 'Gosta de café', evidence: [1] },
        { aspect: 'ritmo', statement: 'Trabalha em lotes', evidence: [1], tom: 'x' },
      ),
      known,
    );
    expect(parsed.hypotheses).toEqual([]);
    expect(parsed.problems).toEqual([
      expect.stringMatching(/^hypothesis 1: aspect/),
      'hypothesis 2: tom not allowed',
    ]);
  });

  it.each(KNOWN_PARAPHRASES)(
    'refuses "%s" as a hypothesis, keeping only the categories',
    (sentence) => {
      const parsed = parseHypotheses(
        answer({ aspect: 'ritmo', statement: sentence, evidence: [1] }),
        known,
      );
      expect(parsed.hypotheses).toEqual([]);
      expect(parsed.refused).toHaveLength(1);
    },
  );

  it('never proposes a hypothesis that infers health, personality, age or gender', () => {
    fc.assert(
      fc.property(
        personInferenceSentence,
        fc.constantFrom('ritmo', 'decisoes', 'bloqueios'),
        (statement, aspect) => {
          expect(
            parseHypotheses(answer({ aspect, statement, evidence: [1] }), known).hypotheses,
          ).toEqual([]);
        },
      ),
    );
  });

  it('gives nothing for an answer that is not the asked JSON', () => {
    expect(parseHypotheses('Não sei.', known)).toMatchObject({
      hypotheses: [],
      problems: ['the answer is not {"hypotheses": [{"aspect", "statement", "evidence"}]}'],
    });
  });

  it('only ever keeps the closed shape, evidence of the session and text the prohibition passes', () => {
    const statement = fc.oneof(
      personInferenceSentence,
      fc.string({ minLength: 1, maxLength: 20 }),
      fc.constantFrom('Decide depois de ver exemplos', 'Trava quando falta um dado'),
    );
    const candidate = fc.record({
      aspect: fc.constantFrom('ritmo', 'decisoes', 'bloqueios', 'humor'),
      statement,
      evidence: fc.array(fc.integer({ min: -5, max: 10 })),
    });
    fc.assert(
      fc.property(fc.array(candidate), (hypotheses) => {
        for (const hypothesis of parseHypotheses(answer(...hypotheses), known).hypotheses) {
          expect(Object.keys(hypothesis).sort()).toEqual(['aspect', 'evidence', 'statement']);
          expect(hypothesis.evidence.length).toBeGreaterThan(0);
          expect(hypothesis.evidence.every((seq) => known.has(seq))).toBe(true);
          expect(checkAnamneseProfile(hypothesis)).toEqual({ ok: true });
        }
      }),
    );
  });
});
