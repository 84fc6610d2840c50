import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORBIDDEN_TEXT_TERMS, PROHIBITED_CATEGORIES } from './anamnese-forbidden-terms.ts';
import { checkAnamneseProfile } from './check-anamnese-profile.ts';
import { competencyVocabulary, matchCompetency } from './competency-vocabulary.ts';

const TECHNOLOGIES = ['Node', 'TypeScript', 'Postgres', 'React', 'Hono', 'Kubernetes', 'SQL'];
const FORBIDDEN = PROHIBITED_CATEGORIES.flatMap((category) => FORBIDDEN_TEXT_TERMS[category]);
const capitalised = (term: string) => term.charAt(0).toUpperCase() + term.slice(1);

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

  it('keeps out what a stack says about a person: the technologies stay, "Diabético" and the like never enter', () => {
    const vocabulary = competencyVocabulary(
      ['Produto'],
      [
        'Node, Diabético',
        'Sofre de insônia + Postgres',
        'Sexagenário / React',
        'Hono; Octogenarian',
      ],
    );
    expect(vocabulary).toEqual(['Produto', 'Node', 'Postgres', 'React', 'Hono']);
    for (const name of ['Diabético', 'Sofre de insônia', 'Sexagenário', 'Octogenarian'])
      expect(matchCompetency(vocabulary, name)).toBeNull();
  });

  it('never holds a name the Anamnese prohibition refuses, from the baseline or any stack', () => {
    const part = fc.oneof(
      fc.constantFrom(...TECHNOLOGIES),
      fc.constantFrom(...FORBIDDEN).map(capitalised),
      fc.string({ maxLength: 12 }),
    );
    const stack = fc
      .tuple(
        fc.array(part, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(', ', ' + ', ' / ', '; '),
      )
      .map(([parts, separator]) => parts.join(separator));
    fc.assert(
      fc.property(
        fc.array(part, { maxLength: 4 }),
        fc.array(stack, { maxLength: 4 }),
        (baseline, stacks) => {
          const vocabulary = competencyVocabulary(baseline, stacks);
          for (const name of vocabulary)
            expect([name, checkAnamneseProfile(name).ok]).toEqual([name, true]);
          for (const technology of TECHNOLOGIES)
            if (
              stacks.some((entry) =>
                entry.split(/[,+/;]/).some((piece) => piece.trim() === technology),
              )
            )
              expect(vocabulary).toContain(technology);
        },
      ),
    );
  });
});
