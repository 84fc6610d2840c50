import { checkAnamneseProfile } from './check-anamnese-profile.ts';
import { competencyKey } from './rag-queries.ts';

/** A stack entry longer than this is a sentence, not a competency name. */
const MAX_COMPETENCY_CHARS = 40;

/**
 * The competencies an Anamnese profile may name: the project's own vocabulary — the baseline the line always
 * needs (product, business rules, prioritisation, …) and every technology the Arquiteto's module map names in
 * a module's `stack` ("TypeScript + Postgres" → TypeScript, Postgres). Deduplicated without case or accents,
 * baseline first, then the stacks in the map's order. A name the Anamnese prohibition refuses ("Diabético",
 * "Sofre de insônia", "Sexagenário") is never part of it, whatever its source (ADR 0318): the model is not
 * offered it and a profile cannot be stored under it. Pure: the vocabulary of a project is a fact of its log.
 */
export function competencyVocabulary(
  baseline: readonly string[],
  stacks: readonly string[],
): string[] {
  const vocabulary = new Map<string, string>();
  const add = (name: string) => {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > MAX_COMPETENCY_CHARS) return;
    if (!checkAnamneseProfile(trimmed).ok) return;
    const key = competencyKey(trimmed);
    if (!vocabulary.has(key)) vocabulary.set(key, trimmed);
  };
  baseline.forEach(add);
  for (const stack of stacks) stack.split(/[,+/;&|]| e | and /).forEach(add);
  return [...vocabulary.values()];
}

/** The vocabulary's own spelling of a competency named without regard to case or accents, or null. */
export function matchCompetency(vocabulary: readonly string[], candidate: string): string | null {
  const key = competencyKey(candidate);
  return vocabulary.find((name) => competencyKey(name) === key) ?? null;
}
