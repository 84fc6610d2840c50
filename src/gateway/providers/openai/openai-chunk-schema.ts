import { z } from 'zod';

/**
 * One `data:` chunk of a Chat Completions stream. Loose on purpose: compatible servers (vLLM, Ollama,
 * llama.cpp, OpenRouter) add fields, send `null` where OpenAI omits, and omit where OpenAI sends
 * `null`; only what the adapter reads is checked.
 */
const toolCallDeltaSchema = z.looseObject({
  index: z.number().int().nonnegative().nullish(),
  id: z.string().nullish(),
  function: z
    .looseObject({
      name: z.string().nullish(),
      // Some servers send the arguments already parsed; the decoder re-serialises them.
      arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
    })
    .nullish(),
});

const choiceSchema = z.looseObject({
  delta: z
    .looseObject({
      content: z.string().nullish(),
      tool_calls: z.array(toolCallDeltaSchema).nullish(),
    })
    .nullish(),
  finish_reason: z.string().nullish(),
});

export const openAiChunkSchema = z.looseObject({
  choices: z.array(choiceSchema).nullish(),
  usage: z
    .looseObject({
      prompt_tokens: z.number().int().nonnegative().nullish(),
      completion_tokens: z.number().int().nonnegative().nullish(),
      prompt_tokens_details: z
        .looseObject({ cached_tokens: z.number().int().nonnegative().nullish() })
        .nullish(),
    })
    .nullish(),
  // An error object can arrive in the middle of a stream instead of a chunk.
  error: z
    .looseObject({ message: z.string().nullish(), type: z.string().nullish(), code: z.unknown() })
    .nullish(),
});

export type OpenAiChunk = z.infer<typeof openAiChunkSchema>;
export type OpenAiToolCallDelta = z.infer<typeof toolCallDeltaSchema>;
