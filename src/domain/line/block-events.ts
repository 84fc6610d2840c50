import { z } from 'zod';

/**
 * The block loop's events (ADR 0110, kinds ADR 0323), beside `dev.blocked`:
 * - `arquiteto.block_answered` — `answer_block`: the Arquiteto tells a blocked dev to do without, and why.
 * - `dev.unblocked` — the line saw the block resolved (a newer `module_contracts` or `module_map` version, as the
 *   block's kind asks, or the answer) and
 *   gave the dev's lane a turn saying so.
 */
export const BLOCK_EVENT_TYPES = {
  answered: 'arquiteto.block_answered',
  unblocked: 'dev.unblocked',
} as const;

export const BlockAnsweredPayloadSchema = z.object({
  v: z.literal(1),
  dev: z.string().min(1),
  block_seq: z.number().int().positive(),
  answer: z.string().min(1),
});

export const BlockResolutionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('contracts'),
    version: z.number().int().positive(),
    seq: z.number().int().positive(),
  }),
  z.object({
    kind: z.literal('module_map'),
    version: z.number().int().positive(),
    seq: z.number().int().positive(),
  }),
  z.object({
    kind: z.literal('answer'),
    answer: z.string().min(1),
    seq: z.number().int().positive(),
  }),
]);

export const DevUnblockedPayloadSchema = z.object({
  v: z.literal(1),
  agent: z.string().min(1),
  module: z.string().min(1),
  modulo: z.string().min(1),
  falta: z.string().min(1),
  block_seq: z.number().int().positive(),
  resolution: BlockResolutionSchema,
});

export type BlockResolution = z.infer<typeof BlockResolutionSchema>;
export type DevUnblockedPayload = z.infer<typeof DevUnblockedPayloadSchema>;
