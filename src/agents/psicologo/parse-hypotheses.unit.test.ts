import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHypotheses } from './parse-hypotheses.ts';

const known = new Set([1, 2, 3, 5]);

describe('parseHypotheses', () => {
  it('reads hypotheses from plain or fenced JSON, keeping only evidence the session has', () => {
    const text = 'Aqui está:\n```json\n{"hypotheses": [{"statement": "Decide rápido", "evidence": [5, 2, 2, 99]}]}\n```';
    expect(parseHypotheses(text, known)).toEqual({ hypotheses: [{ statement: 'Decide rápido', evidence: [2, 5] }], problems: [] });
  });

  it('drops a hypothesis that cites nothing real, and those beyond three', () => {
    const many = { hypotheses: [{ statement: 'a', evidence: [99] }, ...['b', 'c', 'd', 'e'].map((statement) => ({ statement, evidence: [1] }))] };
    const parsed = parseHypotheses(JSON.stringify(many), known);
    expect(parsed.hypotheses.map((hypothesis) => hypothesis.statement)).toEqual(['b', 'c', 'd']);
    expect(parsed.problems).toEqual(['hypothesis 1 cites no event of the session', 'hypothesis 5 is beyond the 3 allowed']);
  });

  it('gives nothing for an answer that is not the asked JSON', () => {
    expect(parseHypotheses('Não sei.', known)).toEqual({ hypotheses: [], problems: ['the answer is not {"hypotheses": [{"statement", "evidence"}]}'] });
  });

  it('never keeps evidence outside the session, whatever the model says', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ statement: fc.string({ minLength: 1, maxLength: 20 }), evidence: fc.array(fc.integer({ min: -5, max: 10 })) })), (hypotheses) => {
        for (const hypothesis of parseHypotheses(JSON.stringify({ hypotheses }), known).hypotheses) {
          expect(hypothesis.evidence.length).toBeGreaterThan(0);
          expect(hypothesis.evidence.every((seq) => known.has(seq))).toBe(true);
        }
      }),
    );
  });
});
