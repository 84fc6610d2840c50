import { z } from 'zod';

/**
 * The Messages streaming events the adapter reads, keyed by `type`. Objects stay loose so new fields
 * the API adds never break the stream; unknown event types are ignored by the decoder, as the API
 * documentation asks of clients.
 */
const usageSchema = z.looseObject({
  input_tokens: z.number().int().nonnegative().nullish(),
  output_tokens: z.number().int().nonnegative().nullish(),
  cache_creation_input_tokens: z.number().int().nonnegative().nullish(),
  cache_read_input_tokens: z.number().int().nonnegative().nullish(),
});

export const anthropicEventSchemas = {
  message_start: z.looseObject({ message: z.looseObject({ usage: usageSchema.nullish() }) }),
  content_block_start: z.looseObject({
    index: z.number().int().nonnegative(),
    content_block: z.looseObject({
      type: z.string(),
      id: z.string().nullish(),
      name: z.string().nullish(),
      input: z.unknown().optional(),
      text: z.string().nullish(),
    }),
  }),
  content_block_delta: z.looseObject({
    index: z.number().int().nonnegative(),
    delta: z.looseObject({
      type: z.string(),
      text: z.string().nullish(),
      partial_json: z.string().nullish(),
    }),
  }),
  content_block_stop: z.looseObject({ index: z.number().int().nonnegative() }),
  message_delta: z.looseObject({
    delta: z.looseObject({ stop_reason: z.string().nullish() }).nullish(),
    usage: usageSchema.nullish(),
  }),
  error: z.looseObject({
    error: z.looseObject({ type: z.string().nullish(), message: z.string().nullish() }),
  }),
};

export const anthropicEventTypeSchema = z.looseObject({ type: z.string() });

export type AnthropicUsage = z.infer<typeof usageSchema>;
