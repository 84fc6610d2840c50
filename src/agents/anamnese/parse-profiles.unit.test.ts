import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAnamneseProfile } from '../../domain/memory/index.ts';
import { parseProfiles } from './parse-profiles.ts';

const known = new Set([1, 2, 3]);
const answer = (...profiles: unknown[]) => JSON.stringify({ profiles });
const sql = { competency: 'SQL', level: 'avancado', summary: 'Escreve consultas com janelas e CTEs', evidence: [2, 7] };

describe('parseProfiles — the Anamnese prohibition', () => {
  it('accepts a competence profile, keeping the evidence the session has', () => {
    expect(parseProfiles(answer(sql), known)).toEqual({ profiles: [{ ...sql, evidence: [2] }], refused: [], problems: [] });
  });

  it.each([
    ['health in the summary', { ...sql, summary: 'Domina SQL, mas parece ter ansiedade com prazos' }, 'health'],
    ['personality in the summary', { ...sql, summary: 'Introvertido, prefere trabalhar sozinho em SQL' }, 'personality'],
    ['age in an extra field', { ...sql, idade: 34 }, 'age'],
    ['gender in the summary', { ...sql, summary: 'Uma mulher que domina SQL' }, 'gender'],
    ['a nested inference', { ...sql, notes: { about: 'She is a female engineer' } }, 'gender'],
  ])('refuses a profile that infers %s, keeping only its competency and the categories', (_case, profile, category) => {
    const parsed = parseProfiles(answer(profile, sql), known);
    expect(parsed.profiles).toEqual([{ ...sql, evidence: [2] }]);
    expect(parsed.refused).toEqual([{ competency: 'SQL', violations: [expect.objectContaining({ category })] }]);
  });

  it('names shape problems and missing evidence', () => {
    const parsed = parseProfiles(answer({ ...sql, level: 'guru' }, { ...sql, evidence: [99] }), known);
    expect(parsed.profiles).toEqual([]);
    expect(parsed.problems).toEqual([expect.stringMatching(/^profile 1: level/), 'profile 2 cites no event of the session']);
  });

  it('never lets through a profile the prohibition refuses, whatever the model writes', () => {
    const word = fc.constantFrom('SQL', 'testes', 'deploy', 'ansiedade', 'introvertida', 'idoso', 'feminino', 'clareza', 'autism');
    const summary = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(fc.array(fc.record({ competency: word, level: fc.constantFrom('iniciante', 'avancado'), summary, evidence: fc.constant([1]) }), { maxLength: 6 }), (profiles) => {
        for (const profile of parseProfiles(answer(...profiles), known).profiles) expect(checkAnamneseProfile(profile)).toEqual({ ok: true });
      }),
    );
  });
});
