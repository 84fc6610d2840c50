import { z } from 'zod';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';
import { devBlocks } from '../dev/dev-blocks.ts';
import { LINE_EVENTS } from '../../domain/line/index.ts';

const AnswerBlockSchema = z.strictObject({
  dev: z
    .string()
    .trim()
    .regex(/^dev:[a-z0-9][a-z0-9_-]*$/, 'must be a blocked dev agent, e.g. dev:catalogo')
    .describe('The blocked dev agent.'),
  answer: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(1000, 'must be at most 1000 characters')
    .describe('Why the dev must do without what it asked for, and how.'),
});

/**
 * `answer_block` (direct): `{dev, answer}` — the Arquiteto's other way out of a dev's block (ADR 0110): the
 * dev goes on without the missing interface, for the reason given. Recorded as `arquiteto.block_answered`
 * for the dev's oldest open block; the line then gives the dev's lane a turn with the answer. Refused when
 * that dev has no open block (the refusal lists who has).
 */
export function answerBlockTool(): AgentTool {
  return defineTool({
    name: 'answer_block',
    description:
      'Answer a blocked dev that it must do without what it reported, and how: {dev: "dev:<module>", answer: "why, and what to do instead"}. To resolve the block instead: a new module_contracts version (kind interface) or module_map version (kind check or task).',
    parameters: AnswerBlockSchema,
    mode: 'direct',
    run: async ({ dev, answer }, context) => {
      const open = devBlocks(context.events).filter((block) => block.status === 'open');
      const block = open.find((candidate) => candidate.agent === dev);
      if (block === undefined) {
        const blocked = [...new Set(open.map((candidate) => candidate.agent))];
        return {
          ok: false,
          result: `answer_block refused: dev: ${dev} has no open block; blocked now: ${blocked.length === 0 ? '(nobody)' : blocked.join(', ')}. Nothing was recorded.`,
        };
      }
      return {
        ok: true,
        result: `Recorded: ${dev} goes on without ${block.falta} (${block.modulo}). It gets a turn with your answer.`,
        events: [
          LINE_EVENTS.blockAnswered.create(context.agent, {
            v: 1,
            dev,
            block_seq: block.seq,
            answer,
          }),
        ],
      };
    },
  });
}
