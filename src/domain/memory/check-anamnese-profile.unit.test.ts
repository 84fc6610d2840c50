import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAnamneseProfile } from './check-anamnese-profile.ts';

const competence = {
  competency: 'typescript',
  level: 'advanced',
  evidence: ['Refactored the billing module with strict types'],
};

describe('checkAnamneseProfile', () => {
  it.each([
    ['a competence profile', competence],
    [
      'operations work with health checks',
      {
        ...competence,
        evidence: ['Added health checks and healthcheck probes', 'Set Cache-Control max-age'],
      },
    ],
    [
      'words that only contain a forbidden one',
      { competency: 'qualidade', summary: 'usage of page storage; managed a stage' },
    ],
    [
      'Portuguese competence text',
      { competency: 'comunicação', resumo: 'Explica decisões técnicas com clareza ao time' },
    ],
    ['numbers and booleans', { competency: 'sql', years_of_practice: 4, certified: true }],
  ])('accepts %s', (_case, profile) => {
    expect(checkAnamneseProfile(profile)).toEqual({ ok: true });
  });

  it.each([
    ['a health field', { ...competence, health: 'ok' }, 'health', 'health'],
    ['a Portuguese health field', { ...competence, saúde: 'boa' }, 'health', 'saúde'],
    [
      'a personality field in camelCase',
      { ...competence, personalityType: 'INTJ' },
      'personality',
      'personalityType',
    ],
    ['an age field', { ...competence, age: 34 }, 'age', 'age'],
    ['a birth date field', { ...competence, birthDate: '1990-01-01' }, 'age', 'birthDate'],
    [
      'a Portuguese birth field',
      { ...competence, data_nascimento: '1990' },
      'age',
      'data_nascimento',
    ],
    ['a gender field', { ...competence, gênero: 'x' }, 'gender', 'gênero'],
    ['a pronouns field', { ...competence, pronouns: 'x' }, 'gender', 'pronouns'],
    [
      'a health inference in text',
      { ...competence, summary: 'Parece ter ansiedade em prazos' },
      'health',
      'ansiedade',
    ],
    [
      'an English health inference',
      { ...competence, summary: 'Likely has ADHD' },
      'health',
      'adhd',
    ],
    [
      'a mental health phrase',
      { ...competence, notes: ['Mentions Mental-Health leave'] },
      'health',
      'health',
    ],
    [
      'a personality inference',
      { ...competence, summary: 'Pessoa introvertida' },
      'personality',
      'introvertida',
    ],
    [
      'an English personality inference',
      { ...competence, summary: 'An introvert who prefers async work' },
      'personality',
      'introvert',
    ],
    ['an age inference', { ...competence, summary: 'Tem uns 30 anos de idade' }, 'age', 'idade'],
    [
      'an English age inference',
      { ...competence, summary: 'Probably 25 years old' },
      'age',
      'years old',
    ],
    ['a generation', { ...competence, summary: 'Typical Gen-Z learner' }, 'age', 'gen z'],
    [
      'a gender inference',
      { ...competence, summary: 'Uma mulher que lidera o time' },
      'gender',
      'mulher',
    ],
    [
      'an English gender inference',
      { ...competence, summary: 'She is a female engineer' },
      'gender',
      'female',
    ],
    [
      'an inference nested deep',
      { ...competence, evidence: [{ note: { text: 'Sexo: masculino' } }] },
      'gender',
      'sexo',
    ],
    ['a forbidden field nested deep', { ...competence, traits: [{ Idade: 30 }] }, 'age', 'Idade'],
  ])('refuses %s', (_case, profile, category, term) => {
    const result = checkAnamneseProfile(profile);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.violations[0]).toMatchObject({ category, term });
  });

  it('names every violation with its path in the reason', () => {
    const result = checkAnamneseProfile({
      competency: 'sql',
      age: 30,
      evidence: ['ok', 'Diagnosticado com TDAH'],
    });
    expect(result).toEqual({
      ok: false,
      reason:
        'the Anamnese never infers health, personality, age or gender; refused age: field "age" infers age; evidence[1]: text "diagnosticado" infers health',
      violations: [
        { path: 'age', category: 'age', term: 'age', where: 'field' },
        { path: 'evidence[1]', category: 'health', term: 'diagnosticado', where: 'text' },
      ],
    });
  });
});

describe('checkAnamneseProfile properties', () => {
  const forbiddenText = fc.constantFrom(
    'depressão',
    'personalidade',
    'idoso',
    'feminino',
    'autism',
    'extrovert',
    'years old',
    'gender',
  );
  const safeWord = fc.constantFrom(
    'typescript',
    'deploy',
    'tests',
    'review',
    'api',
    'clareza',
    'entrega',
    'módulo',
  );

  it('a forbidden term anywhere in any text value refuses the profile', () => {
    fc.assert(
      fc.property(
        fc.array(safeWord),
        forbiddenText,
        fc.array(safeWord),
        fc.nat(3),
        (before, term, after, depth) => {
          let value: unknown = [...before, term.toUpperCase(), ...after].join(' ');
          for (let level = 0; level < depth; level += 1) value = { evidence: [value] };
          expect(checkAnamneseProfile({ competency: 'typescript', detail: value }).ok).toBe(false);
        },
      ),
    );
  });

  it('a forbidden field name at any depth refuses the profile', () => {
    const forbiddenField = fc.constantFrom(
      'health',
      'personalidade',
      'birthDate',
      'gênero',
      'data_nascimento',
      'pronouns',
    );
    fc.assert(
      fc.property(forbiddenField, fc.nat(3), (field, depth) => {
        let value: Record<string, unknown> = { [field]: 'x' };
        for (let level = 0; level < depth; level += 1) value = { evidence: [value] };
        expect(checkAnamneseProfile({ competency: 'typescript', detail: value }).ok).toBe(false);
      }),
    );
  });

  it('text made only of competence words is accepted', () => {
    fc.assert(
      fc.property(fc.array(safeWord), (words) => {
        expect(
          checkAnamneseProfile({ competency: 'typescript', summary: words.join(' ') }),
        ).toEqual({ ok: true });
      }),
    );
  });
});
