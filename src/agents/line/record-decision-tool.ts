import { z } from 'zod';
import {
  ARTIFACT_PAYLOAD_VERSION,
  artifactEvent,
  checkOrigin,
  DECISION_TYPE,
  decisionDefinition,
  type Decision,
  MAX_ORIGIN_SEQS,
} from '../../domain/artifacts/index.ts';
import { CONVERSATION_EVENT_TYPES, type PersonQuestion } from '../../domain/conversation/index.ts';
import { type AgentTool, defineTool, type ToolOutcome } from '../runtime/agent-tool.ts';

const text = (max: number, what: string) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !value.includes('\u0000'), 'must not contain NUL characters')
    .refine((value) => value.isWellFormed(), 'must not contain a lone UTF-16 surrogate')
    .describe(what);

const RecordDecisionSchema = z.strictObject({
  question: text(2000, 'The open question this closes, as the brief or the person put it.'),
  answer: text(4000, 'What was decided.'),
  reason: text(2000, 'Why: the person said so, or your reasons when you decided.'),
  question_id: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(64, 'must be at most 64 characters')
    .optional()
    .describe('The id of the ask_person question it closes, when you asked one.'),
  origin: z
    .array(z.number().int())
    .max(MAX_ORIGIN_SEQS, `must have at most ${MAX_ORIGIN_SEQS} seqs`)
    .optional()
    .describe('Seqs ([#N]) of the messages the decision comes from, if any.'),
});

/**
 * `record_decision` `{question, answer, reason, question_id?, origin?}`: an open question closed, as an
 * `artifact.decision`. Who decided comes from the log, never from the model: the person when `question_id`
 * names a question they answered, otherwise the agent itself — whose decisions the person sees on the next
 * handoff they accept.
 */
export function recordDecisionTool(): AgentTool {
  return defineTool({
    name: 'record_decision',
    description:
      'Record how an open question was decided: {question, answer, reason, question_id?: the ask_person question it closes, origin?: [seq,…]}. Every open question of the brief ends answered by the person or recorded here; the decisions you make yourself are shown to the person on your next handoff.',
    parameters: RecordDecisionSchema,
    mode: 'direct',
    run: async (args, context): Promise<ToolOutcome> => {
      const asked =
        args.question_id === undefined
          ? null
          : (context.state.questions.find(
              (question) => question.question_id === args.question_id,
            ) ?? null);
      const decider = decidedBy(asked, args.question_id, context.agent);
      if (!decider.ok) return { ok: false, result: `record_decision refused: ${decider.reason}` };
      const origin = checkOrigin(
        decisionDefinition,
        args.origin,
        context.events,
        CONVERSATION_EVENT_TYPES,
      );
      if (!origin.ok) return { ok: false, result: `record_decision refused: ${origin.reason}` };
      const data: Decision = {
        question: args.question,
        answer: args.answer,
        decided_by: decider.by,
        reason: args.reason,
        ...(args.question_id === undefined ? {} : { question_id: args.question_id }),
      };
      const who = decider.by === 'person' ? 'the person' : 'you';
      return {
        ok: true,
        result: `Recorded the decision (decided by ${who}): ${args.question} → ${args.answer}.${decider.by === 'person' ? '' : ' The person sees it on your next handoff.'}`,
        events: [
          artifactEvent(DECISION_TYPE, context.agent, {
            v: ARTIFACT_PAYLOAD_VERSION,
            data,
            ...(origin.origin.length > 0 ? { origin: origin.origin } : {}),
          }),
        ],
      };
    },
  });
}

function decidedBy(
  asked: PersonQuestion | null,
  questionId: string | undefined,
  agent: string,
): { ok: true; by: string } | { ok: false; reason: string } {
  if (questionId === undefined) return { ok: true, by: agent };
  if (asked === null)
    return { ok: false, reason: `question_id ${questionId} is not a question of this session` };
  if (asked.status === 'asked')
    return {
      ok: false,
      reason: `question ${questionId} still waits for the person's answer; record it after the answer`,
    };
  return { ok: true, by: asked.decide_yourself ? agent : 'person' };
}
