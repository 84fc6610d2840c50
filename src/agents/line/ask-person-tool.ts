import { z } from 'zod';
import {
  answerForTheAgent,
  MAX_QUESTION_CHARACTERS,
  MAX_QUESTION_OPTIONS,
} from '../../domain/conversation/index.ts';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';

const noNul = (text: string) => !text.includes('\u0000');
const questionText = (what: string) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_QUESTION_CHARACTERS, `must be at most ${MAX_QUESTION_CHARACTERS} characters`)
    .refine(noNul, 'must not contain NUL characters')
    .refine((value) => value.isWellFormed(), 'must not contain a lone UTF-16 surrogate')
    .describe(what);

const AskPersonSchema = z.strictObject({
  question: questionText('The question, as the person reads it: one decision only they can make.'),
  options: z
    .array(questionText('One option the person may pick.'))
    .max(MAX_QUESTION_OPTIONS, `must have at most ${MAX_QUESTION_OPTIONS} options`)
    .optional()
    .describe('The answers you see, if any; the person may answer something else.'),
  why: questionText('Why you need it: what depends on the answer.').optional(),
});

/**
 * `ask_person` `{question, options?, why?}`: a decision only the person can make goes to the person. The call
 * is recorded as `person.asked` and shown in Needs you; the agent's lane waits (other lanes go on) until
 * `person.answered`, whose answer — or "decide yourself" — is the call's result.
 */
export function askPersonTool(): AgentTool {
  return defineTool({
    name: 'ask_person',
    description:
      'Ask the person a question only they can decide (scope, priorities, a product choice the brief leaves open). Your turn waits for the answer; the answer, or "decide yourself", comes back as this call\'s result. Ask each open question once; do not decide them silently.',
    parameters: AskPersonSchema,
    mode: 'direct',
    asksPerson: ({ question, options, why }) => ({
      question,
      ...(options === undefined || options.length === 0 ? {} : { options }),
      ...(why === undefined ? {} : { why }),
    }),
    run: async (_args, context) => {
      const question = context.state.questions.find(
        (asked) => asked.tool_call_id === context.toolCallId && asked.status === 'answered',
      );
      if (question === undefined)
        return { ok: false, result: 'ask_person: the person has not answered this question yet.' };
      return { ok: true, result: answerForTheAgent(question) };
    },
  });
}
