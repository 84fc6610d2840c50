import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { competencyVocabulary, matchCompetency } from './competency-vocabulary.ts';

describe('competencyVocabulary', () => {
  it('is the baseline and the technologies of the module map, without repeats', () => {
    expect(
      competencyVocabulary(
        ['Produto', 'SQL'],
        ['TypeScript + Postgres', 'typescript, React', 'Node.js/Hono'],
      ),
    ).toEqual(['Produto', 'SQL', 'TypeScript', 'Postgres', 'React', 'Node.js', 'Hono']);
  });

  it('matches a competency without case or accents, in the vocabulary’s spelling, and nothing else', () => {
    const vocabulary = competencyVocabulary(['Comunicação', 'SQL'], ['TypeScript']);
    expect(matchCompetency(vocabulary, 'comunicacao')).toBe('Comunicação');
    expect(matchCompetency(vocabulary, ' typescript ')).toBe('TypeScript');
    expect(matchCompetency(vocabulary, 'Tem 45 anos')).toBeNull();
  });

  it('only ever matches names of the vocabulary', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string()),
        fc.array(fc.string()),
        fc.string(),
        (baseline, stacks, candidate) => {
          const vocabulary = competencyVocabulary(baseline, stacks);
          const matched = matchCompetency(vocabulary, candidate);
          if (matched !== null) expect(vocabulary).toContain(matched);
        },
      ),
    );
  });
});
