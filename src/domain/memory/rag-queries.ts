import { InvariantViolationError } from '../errors/invariant-violation-error.ts';
import type { SessionEndReason } from './session-end-reason.ts';

/**
 * The Psicólogo's `rag_search` query for each classified end reason. Fixed text, Portuguese with English
 * keywords because project fragments come in either: the query is derived ONLY from the trigger of the
 * analysis, never from free text of a hypothesis (record ADR 0101), so it cannot echo what the model guessed.
 */
export const PSYCHOLOGIST_RAG_QUERIES: Readonly<Record<SessionEndReason, string>> = {
  completed:
    'sessão concluída, handoff aceito, brief do produto, próximos passos; session completed, handoff accepted',
  abandoned:
    'sessão abandonada, perguntas sem resposta, dúvidas em aberto; session abandoned, open questions',
  blocked:
    'sessão bloqueada, ação negada, impedimento, limite de iterações; session blocked, action denied, blocker',
  budget: 'orçamento excedido, custo de tokens, limite do projeto; budget exceeded, token cost',
};

/** The Psicólogo's query: a function of the classified end reason alone. */
export function ragQueryForPsychologist(reason: SessionEndReason): string {
  const query = PSYCHOLOGIST_RAG_QUERIES[reason];
  if (query === undefined)
    throw new InvariantViolationError('session_end_reason', `unknown reason "${String(reason)}"`);
  return query;
}

/** Most competencies one Anamnese query names; more would blur the search into noise. */
export const MAX_ANAMNESE_QUERY_COMPETENCIES = 12;

/**
 * The Anamnese's query: the competencies still without a profile, in the order given, compared without
 * case or accents, at most `MAX_ANAMNESE_QUERY_COMPETENCIES`. Only each profile's `competency` is read,
 * never its text. `null` when every competency has a profile: then there is nothing to search for, and the
 * caller skips `rag_search`, which keeps the context exactly as it was without RAG.
 */
export function ragQueryForAnamnese(
  allCompetencies: readonly string[],
  profiles: readonly { readonly competency: string }[],
): string | null {
  const profiled = new Set(profiles.map((profile) => competencyKey(profile.competency)));
  const missing = new Map<string, string>();
  for (const competency of allCompetencies) {
    const key = competencyKey(competency);
    if (key !== '' && !profiled.has(key) && !missing.has(key)) missing.set(key, competency.trim());
  }
  if (missing.size === 0) return null;
  return [...missing.values()].slice(0, MAX_ANAMNESE_QUERY_COMPETENCIES).join(', ');
}

/** `" TypeScript "` and `"typescript"`, `"Comunicação"` and `"comunicacao"` are the same competency. */
export function competencyKey(competency: string): string {
  return competency.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase();
}
