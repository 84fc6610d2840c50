import { z } from 'zod';
import { parseJsonAnswer } from '../companions/parse-json-answer.ts';
import { PSICOLOGO_MAX_HYPOTHESES } from './psicologo-kickoff.ts';

export interface ProposedHypothesis {
  readonly statement: string;
  readonly evidence: readonly number[];
}

const AnswerSchema = z.object({
  hypotheses: z.array(z.object({ statement: z.string().trim().min(1).max(600), evidence: z.array(z.number().int()) })),
});

/**
 * Reads the Psicólogo's answer: at most `PSICOLOGO_MAX_HYPOTHESES` hypotheses, each keeping only evidence
 * the session really has (`knownSeqs`); a hypothesis left without evidence is dropped, with the reason.
 * Pure: the model's text is data, and what it cannot back up never becomes an event.
 */
export function parseHypotheses(text: string, knownSeqs: ReadonlySet<number>): { hypotheses: ProposedHypothesis[]; problems: string[] } {
  const parsed = AnswerSchema.safeParse(parseJsonAnswer(text));
  if (!parsed.success) return { hypotheses: [], problems: ['the answer is not {"hypotheses": [{"statement", "evidence"}]}'] };
  const hypotheses: ProposedHypothesis[] = [];
  const problems: string[] = [];
  for (const [index, candidate] of parsed.data.hypotheses.entries()) {
    const evidence = [...new Set(candidate.evidence.filter((seq) => knownSeqs.has(seq)))].sort((left, right) => left - right);
    if (evidence.length === 0) problems.push(`hypothesis ${index + 1} cites no event of the session`);
    else if (hypotheses.length >= PSICOLOGO_MAX_HYPOTHESES) problems.push(`hypothesis ${index + 1} is beyond the ${PSICOLOGO_MAX_HYPOTHESES} allowed`);
    else hypotheses.push({ statement: candidate.statement, evidence });
  }
  return { hypotheses, problems };
}
