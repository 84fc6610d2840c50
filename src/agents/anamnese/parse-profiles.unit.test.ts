import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAnamneseProfile } from '../../domain/memory/index.ts';
import {
  KNOWN_PARAPHRASES,
  personInferenceSentence,
} from '../../domain/memory/test-support/person-inference-sentences.ts';
import { parseProfiles } from './parse-profiles.ts';

const known = new Set([1, 2, 3]);
const vocabulary = ['Produto', 'SQL', 'Comunicação', 'TypeScript'];
const answer = (...profiles: unknown[]) => JSON.stringify({ profiles });
const sql = { competency: 'SQL', level: 'avancado', evidence: [2, 7] };
const parse = (text: string) => parseProfiles(text, known, vocabulary);

describe('parseProfiles — a closed profile that cannot say it', () => {
  it('accepts a competence profile of the vocabulary, in its spelling, keeping the evidence the session has', () => {
    expect(
      parse(answer(sql, { competency: 'comunicacao', level: 'iniciante', evidence: [3] })),
    ).toEqual({
      profiles: [
        { ...sql, evidence: [2] },
        { competency: 'Comunicação', level: 'iniciante', evidence: [3] },
      ],
      refused: [],
      problems: [],
    });
  });

  it('refuses any field beyond competency, level and evidence, and a competency outside the vocabulary', () => {
    const parsed = parse(
      answer(
        { ...sql, summary: 'Escreve consultas com janelas e CTEs' },
        { ...sql, competency: 'Liderança' },
      ),
    );
    expect(parsed.profiles).toEqual([]);
    expect(parsed.problems).toEqual([
      'profile 1: summary not allowed: a profile holds only competency, level, evidence',
      "profile 2: competency must be one of the project's: Produto, SQL, Comunicação, TypeScript",
    ]);
  });

  it.each([
    ['health in an extra field', { ...sql, notes: 'parece ter ansiedade com prazos' }, 'health'],
    ['personality in an extra field', { ...sql, perfil: 'Introvertido' }, 'personality'],
    ['age in a field name', { ...sql, idade: 34 }, 'age'],
    ['gender in the competency', { ...sql, competency: 'Uma mulher que domina SQL' }, 'gender'],
    ['a nested inference', { ...sql, notes: { about: 'She is a female engineer' } }, 'gender'],
  ])(
    'refuses a profile that infers %s, keeping only where and what category',
    (_case, profile, category) => {
      const parsed = parse(answer(profile, sql));
      expect(parsed.profiles).toEqual([{ ...sql, evidence: [2] }]);
      expect(parsed.refused).toEqual([
        { competency: expect.any(String), violations: [expect.objectContaining({ category })] },
      ]);
    },
  );

  it.each(KNOWN_PARAPHRASES)('never stores "%s", in any field', (sentence) => {
    for (const profile of [
      { ...sql, competency: sentence },
      { ...sql, summary: sentence },
      { ...sql, level: sentence },
      { ...sql, evidence: [2], nota: sentence },
    ]) {
      expect(parse(answer(profile)).profiles).toEqual([]);
    }
  });

  it('never stores a sentence about the person, wherever the model puts it', () => {
    const field = fc.constantFrom('competency', 'summary', 'level', 'nota', 'about');
    fc.assert(
      fc.property(personInferenceSentence, field, (sentence, key) => {
        const profiles = parse(answer({ ...sql, [key]: sentence })).profiles;
        expect(profiles).toEqual([]);
      }),
    );
  });

  it('only ever accepts the closed structure, with a competency of the vocabulary and the prohibition passed', () => {
    const text = fc.oneof(
      fc.constantFrom(...vocabulary, 'sql', 'Liderança', 'deploy'),
      personInferenceSentence,
      fc.string(),
    );
    const candidate = fc.record(
      {
        competency: text,
        level: fc.constantFrom('iniciante', 'avancado', 'guru'),
        evidence: fc.constant([1]),
      },
      { requiredKeys: [] },
    );
    const extra = fc.dictionary(fc.constantFrom('summary', 'notes', 'traits', 'competency'), text, {
      maxKeys: 2,
    });
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(candidate, extra).map(([base, more]) => ({ ...base, ...more })),
          { maxLength: 6 },
        ),
        (profiles) => {
          for (const profile of parse(answer(...profiles)).profiles) {
            expect(Object.keys(profile).sort()).toEqual(['competency', 'evidence', 'level']);
            expect(vocabulary).toContain(profile.competency);
            expect(checkAnamneseProfile(profile)).toEqual({ ok: true });
          }
        },
      ),
    );
  });

  it('names shape problems and missing evidence', () => {
    const parsed = parse(answer({ ...sql, level: 'guru' }, { ...sql, evidence: [99] }));
    expect(parsed.profiles).toEqual([]);
    expect(parsed.problems).toEqual([
      expect.stringMatching(/^profile 1: level/),
      'profile 2 cites no event of the session',
    ]);
  });
});
