import { z } from 'zod';
import {
  checkAnamneseProfile,
  COMPETENCE_LEVELS,
  matchCompetency,
  type AnamneseViolation,
} from '../../domain/memory/index.ts';
import { parseJsonAnswer } from '../companions/parse-json-answer.ts';
import { ANAMNESE_MAX_PROFILES } from './anamnese-kickoff.ts';

/**
 * A competence profile, closed by construction (record ADR 0101's prohibition): a competency of the project's
 * vocabulary, a level of the fixed scale, and evidence as event references. There is no free-text field in
 * which an inference about the person could live.
 */
export interface CompetenceProfile {
  readonly competency: string;
  readonly level: (typeof COMPETENCE_LEVELS)[number];
  readonly evidence: readonly number[];
}

/** A profile the prohibition refused: its competency (when it is one of the vocabulary) and where, never its text. */
export interface RefusedProfile {
  readonly competency: string;
  readonly violations: readonly AnamneseViolation[];
}

const ALLOWED_FIELDS = ['competency', 'level', 'evidence'] as const;

const ProfileSchema = z.strictObject({
  competency: z.string().trim().min(1).max(80),
  level: z.enum(COMPETENCE_LEVELS),
  evidence: z.array(z.number().int()),
});

/**
 * Reads the Anamnese's answer into closed profiles. Every candidate — the whole object the model sent, extra
 * fields included — passes `checkAnamneseProfile` first (the word list is the second net): one that infers
 * health, personality, age or gender is refused. Then the structure: only `competency`, `level` and
 * `evidence`; the competency must be one of `vocabulary` (stored in the vocabulary's spelling), the level one
 * of the scale, and evidence is kept only where the session has it. Pure.
 */
export function parseProfiles(
  text: string,
  knownSeqs: ReadonlySet<number>,
  vocabulary: readonly string[],
): { profiles: CompetenceProfile[]; refused: RefusedProfile[]; problems: string[] } {
  const answer = parseJsonAnswer(text) as { profiles?: unknown } | null;
  if (answer === null || typeof answer !== 'object' || !Array.isArray(answer.profiles))
    return { profiles: [], refused: [], problems: ['the answer is not {"profiles": [...]}'] };
  const profiles: CompetenceProfile[] = [];
  const refused: RefusedProfile[] = [];
  const problems: string[] = [];
  for (const [index, candidate] of answer.profiles.entries()) {
    const named =
      typeof (candidate as { competency?: unknown })?.competency === 'string'
        ? matchCompetency(vocabulary, (candidate as { competency: string }).competency)
        : null;
    const check = checkAnamneseProfile(candidate);
    if (!check.ok) {
      refused.push({
        competency: named ?? '(not in the vocabulary)',
        violations: check.violations,
      });
      continue;
    }
    const parsed = ProfileSchema.safeParse(candidate);
    if (!parsed.success) {
      problems.push(`profile ${index + 1}: ${parsed.error.issues.map(describeIssue).join('; ')}`);
      continue;
    }
    if (named === null) {
      problems.push(
        `profile ${index + 1}: competency must be one of the project's: ${vocabulary.join(', ')}`,
      );
      continue;
    }
    const evidence = [...new Set(parsed.data.evidence.filter((seq) => knownSeqs.has(seq)))].sort(
      (left, right) => left - right,
    );
    if (evidence.length === 0) problems.push(`profile ${index + 1} cites no event of the session`);
    else if (profiles.some((profile) => profile.competency === named))
      problems.push(`profile ${index + 1} repeats ${named}`);
    else if (profiles.length >= ANAMNESE_MAX_PROFILES)
      problems.push(`profile ${index + 1} is beyond the ${ANAMNESE_MAX_PROFILES} allowed`);
    else profiles.push({ competency: named, level: parsed.data.level, evidence });
  }
  return { profiles, refused, problems };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return `${issue.keys.join(', ')} not allowed: a profile holds only ${ALLOWED_FIELDS.join(', ')}`;
  return `${issue.path.join('.') || '(profile)'} ${issue.message}`;
}
