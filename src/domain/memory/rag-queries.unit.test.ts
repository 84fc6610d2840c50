import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_ANAMNESE_QUERY_COMPETENCIES,
  ragQueryForAnamnese,
  ragQueryForPsychologist,
} from './rag-queries.ts';
import { SESSION_END_REASONS } from './session-end-reason.ts';

describe('ragQueryForPsychologist', () => {
  it('gives each classified reason its own non-empty query', () => {
    const queries = SESSION_END_REASONS.map(ragQueryForPsychologist);
    expect(new Set(queries).size).toBe(SESSION_END_REASONS.length);
    for (const query of queries) expect(query.trim()).not.toBe('');
    expect(ragQueryForPsychologist('blocked')).toContain('sessão bloqueada');
  });

  it('throws for a reason outside the classification, which only a caller bug can produce', () => {
    expect(() => ragQueryForPsychologist('tired' as never)).toThrow('unknown reason "tired"');
  });
});

describe('ragQueryForAnamnese', () => {
  it('names the competencies still without a profile, in the order given', () => {
    const profiles = [
      { competency: 'typescript', level: 'advanced', summary: 'writes typed code daily' },
    ];
    expect(
      ragQueryForAnamnese(['TypeScript', 'Postgres', 'Comunicação', 'comunicacao '], profiles),
    ).toBe('Postgres, Comunicação');
  });

  it('is null when every competency has a profile, so no search runs', () => {
    expect(ragQueryForAnamnese(['SQL'], [{ competency: ' sql ' }])).toBeNull();
    expect(ragQueryForAnamnese([], [])).toBeNull();
  });

  it(`names at most ${MAX_ANAMNESE_QUERY_COMPETENCIES} competencies`, () => {
    const many = Array.from({ length: 20 }, (_, index) => `skill-${index}`);
    expect(ragQueryForAnamnese(many, [])?.split(', ')).toEqual(
      many.slice(0, MAX_ANAMNESE_QUERY_COMPETENCIES),
    );
  });
});

describe('ragQueryForAnamnese properties', () => {
  const competency = fc.constantFrom('typescript', 'postgres', 'react', 'testing', 'sql', 'design');
  const profile = fc.record({ competency, summary: fc.string(), hypothesis: fc.string() });

  it('names exactly the missing competencies, and is null iff none is missing', () => {
    fc.assert(
      fc.property(fc.uniqueArray(competency), fc.array(profile), (all, profiles) => {
        const profiled = new Set(profiles.map((entry) => entry.competency));
        const missing = all.filter((name) => !profiled.has(name));
        const query = ragQueryForAnamnese(all, profiles);
        expect(query).toBe(missing.length === 0 ? null : missing.join(', '));
      }),
    );
  });

  it('never depends on the free text of a profile', () => {
    fc.assert(
      fc.property(
        fc.array(competency),
        fc.array(profile),
        fc.string(),
        (all, profiles, freeText) => {
          const rewritten = profiles.map((entry) => ({
            ...entry,
            summary: freeText,
            hypothesis: freeText,
          }));
          expect(ragQueryForAnamnese(all, rewritten)).toBe(ragQueryForAnamnese(all, profiles));
        },
      ),
    );
  });
});
