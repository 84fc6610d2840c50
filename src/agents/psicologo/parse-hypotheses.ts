import { z } from 'zod';
import { checkAnamneseProfile, type AnamneseViolation } from '../../domain/memory/index.ts';
import { parseJsonAnswer } from '../companions/parse-json-answer.ts';
import { PSICOLOGO_MAX_HYPOTHESES } from './psicologo-kickoff.ts';

/** What a hypothesis may be about: how the person works — their pace, how they decide, where they get stuck. */
export const HYPOTHESIS_ASPECTS = ['ritmo', 'decisoes', 'bloqueios'] as const;
export type HypothesisAspect = (typeof HYPOTHESIS_ASPECTS)[number];

export interface ProposedHypothesis {
  readonly aspect: HypothesisAspect;
  readonly statement: string;
  readonly evidence: readonly number[];
}

/** A hypothesis the prohibition refused: where and what category, never its text. */
export interface RefusedHypothesis {
  readonly violations: readonly AnamneseViolation[];
}

const HypothesisSchema = z.strictObject({
  aspect: z.enum(HYPOTHESIS_ASPECTS),
  statement: z.string().trim().min(1).max(600),
  evidence: z.array(z.number().int()),
});
const AnswerSchema = z.object({ hypotheses: z.array(z.unknown()) });

/**
 * Reads the Psicólogo's answer: at most `PSICOLOGO_MAX_HYPOTHESES` hypotheses `{aspect, statement, evidence}`
 * about how the person works, each keeping only evidence the session has (`knownSeqs`). Every candidate passes
 * the same prohibition as the Anamnese's profiles first (never health, personality, age or gender): one that
 * infers any of them is refused, whatever else it says. Pure.
 */
export function parseHypotheses(
  text: string,
  knownSeqs: ReadonlySet<number>,
): { hypotheses: ProposedHypothesis[]; refused: RefusedHypothesis[]; problems: string[] } {
  const parsed = AnswerSchema.safeParse(parseJsonAnswer(text));
  if (!parsed.success)
    return {
      hypotheses: [],
      refused: [],
      problems: ['the answer is not {"hypotheses": [{"aspect", "statement", "evidence"}]}'],
    };
  const hypotheses: ProposedHypothesis[] = [];
  const refused: RefusedHypothesis[] = [];
  const problems: string[] = [];
  for (const [index, candidate] of parsed.data.hypotheses.entries()) {
    const check = checkAnamneseProfile(candidate);
    if (!check.ok) {
      refused.push({ violations: check.violations });
      continue;
    }
    const shaped = HypothesisSchema.safeParse(candidate);
    if (!shaped.success) {
      problems.push(
        `hypothesis ${index + 1}: ${shaped.error.issues.map((issue) => (issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')} not allowed` : `${issue.path.join('.')} ${issue.message}`)).join('; ')}`,
      );
      continue;
    }
    const evidence = [...new Set(shaped.data.evidence.filter((seq) => knownSeqs.has(seq)))].sort(
      (left, right) => left - right,
    );
    if (evidence.length === 0)
      problems.push(`hypothesis ${index + 1} cites no event of the session`);
    else if (hypotheses.length >= PSICOLOGO_MAX_HYPOTHESES)
      problems.push(`hypothesis ${index + 1} is beyond the ${PSICOLOGO_MAX_HYPOTHESES} allowed`);
    else
      hypotheses.push({ aspect: shaped.data.aspect, statement: shaped.data.statement, evidence });
  }
  return { hypotheses, refused, problems };
}
