import { z } from 'zod';
import { checkAnamneseProfile, type AnamneseViolation } from '../../domain/memory/index.ts';
import { COMPETENCE_LEVELS } from '../../memory/index.ts';
import { parseJsonAnswer } from '../companions/parse-json-answer.ts';
import { ANAMNESE_MAX_PROFILES } from './anamnese-kickoff.ts';

export interface CompetenceProfile {
  readonly competency: string;
  readonly level: (typeof COMPETENCE_LEVELS)[number];
  readonly summary: string;
  readonly evidence: readonly number[];
}

/** A profile the prohibition refused: its competency and where it inferred what, never its text. */
export interface RefusedProfile {
  readonly competency: string;
  readonly violations: readonly AnamneseViolation[];
}

const ProfileSchema = z.object({
  competency: z.string().trim().min(1).max(80),
  level: z.enum(COMPETENCE_LEVELS),
  summary: z.string().trim().min(1).max(600),
  evidence: z.array(z.number().int()),
});

/**
 * Reads the Anamnese's answer. Every profile — the whole object the model sent, extra fields included — is
 * checked by `checkAnamneseProfile` first: one that infers health, personality, age or gender is refused,
 * whatever else it says. Then the shape is checked and evidence is kept only where the session has it.
 * Pure: the prohibition holds in code, not in the prompt.
 */
export function parseProfiles(text: string, knownSeqs: ReadonlySet<number>): { profiles: CompetenceProfile[]; refused: RefusedProfile[]; problems: string[] } {
  const answer = parseJsonAnswer(text) as { profiles?: unknown } | null;
  if (answer === null || typeof answer !== 'object' || !Array.isArray(answer.profiles)) return { profiles: [], refused: [], problems: ['the answer is not {"profiles": [...]}'] };
  const profiles: CompetenceProfile[] = [];
  const refused: RefusedProfile[] = [];
  const problems: string[] = [];
  for (const [index, candidate] of answer.profiles.entries()) {
    const check = checkAnamneseProfile(candidate);
    const competency = typeof (candidate as { competency?: unknown })?.competency === 'string' ? (candidate as { competency: string }).competency : '';
    if (!check.ok) {
      refused.push({ competency, violations: check.violations });
      continue;
    }
    const parsed = ProfileSchema.safeParse(candidate);
    if (!parsed.success) {
      problems.push(`profile ${index + 1}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`);
      continue;
    }
    const evidence = [...new Set(parsed.data.evidence.filter((seq) => knownSeqs.has(seq)))].sort((left, right) => left - right);
    if (evidence.length === 0) problems.push(`profile ${index + 1} cites no event of the session`);
    else if (profiles.length >= ANAMNESE_MAX_PROFILES) problems.push(`profile ${index + 1} is beyond the ${ANAMNESE_MAX_PROFILES} allowed`);
    else profiles.push({ ...parsed.data, evidence });
  }
  return { profiles, refused, problems };
}
