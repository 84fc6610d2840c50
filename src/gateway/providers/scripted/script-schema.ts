import { z } from 'zod';

/**
 * The scripted-model file, in the record's wire names (`tool_calls`, `input_tokens`). Objects are
 * strict so a misspelt key (`tool_call`) is refused instead of silently scripting an empty turn.
 */
const nonNegativeInteger = z
  .number()
  .int('must be a whole number')
  .nonnegative('must not be negative');
const nonEmptyStrings = (rule: string) =>
  z.array(z.string().min(1, rule)).min(1, 'must list at least one entry when present');

const scriptedToolCallSchema = z.strictObject({
  name: z.string().min(1, 'must be a non-empty tool name'),
  arguments: z.record(z.string(), z.unknown()).default({}),
});

/** What the call must carry for the turn to be played; a call that does not match fails. */
const scriptedExpectationSchema = z.strictObject({
  /**
   * Substrings the system prompt must contain, in any order: the instructions the model reads, which are the
   * lane's pinned prompt and the update after the history of what changed in it since (ADR 0430).
   */
  system: nonEmptyStrings('must be a non-empty substring of the system prompt').optional(),
  /** Substrings that must appear in the conversation messages, in this order. */
  messages: nonEmptyStrings('must be a non-empty substring of the messages').optional(),
  /** Names of tools the call must offer. */
  tools: nonEmptyStrings('must be a non-empty tool name').optional(),
  /** The output cap the call must carry (the agent's, or its `FORJA_MODEL_OUTPUT_TOKENS_<AGENT>`). */
  max_output_tokens: z
    .number()
    .int('must be a whole number')
    .positive('must be positive')
    .optional(),
});

/** A provider HTTP error in place of an answer: a 429 or 5xx is retried as a real one would be. */
const scriptedFailureSchema = z.strictObject({
  status: z
    .number()
    .int('must be a whole number')
    .min(400, 'must be an HTTP error status (400–599)')
    .max(599, 'must be an HTTP error status (400–599)'),
  message: z.string().min(1, 'must say what went wrong'),
  /** Seconds the provider asks to wait, as the HTTP `retry-after` header says it; fractions allowed. */
  retry_after: z.number().nonnegative('must not be negative').optional(),
});

const scriptedTurnSchema = z
  .strictObject({
    agent: z.string().min(1, 'must be a non-empty agent slug'),
    text: z.string().default(''),
    tool_calls: z.array(scriptedToolCallSchema).default([]),
    usage: z
      .strictObject({
        input_tokens: nonNegativeInteger,
        output_tokens: nonNegativeInteger,
        /** Of the input, tokens read from the provider's prompt cache (billed at the cached rate). */
        cached_input_tokens: nonNegativeInteger.optional(),
        /** Of the input, tokens written to the prompt cache (billed at the cache-write rate). */
        cache_write_input_tokens: nonNegativeInteger.optional(),
      })
      .optional(),
    expect: scriptedExpectationSchema.optional(),
    /** Milliseconds before the first part (or the failure), like a model's time to first token. */
    delay_ms: nonNegativeInteger.optional(),
    /** Milliseconds between two parts, so streaming can be watched and overlapping lanes tested. */
    pace_ms: nonNegativeInteger.optional(),
    fail: scriptedFailureSchema.optional(),
  })
  .superRefine((turn, context) => {
    if (turn.fail === undefined) return;
    for (const key of ['text', 'tool_calls', 'usage', 'pace_ms'] as const) {
      const value = turn[key];
      const empty =
        value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
      if (!empty)
        context.addIssue({
          code: 'custom',
          path: [key],
          message: 'must be left out of a turn that fails: a failed call streams nothing',
        });
    }
  });

export const scriptSchema = z.strictObject({ turns: z.array(scriptedTurnSchema) });

/** A validated script, defaults filled in. */
export type Script = z.output<typeof scriptSchema>;
/** A script as written by hand or in a test: everything but `agent` may be left out. */
export type ScriptInput = z.input<typeof scriptSchema>;
export type ScriptedTurn = z.output<typeof scriptedTurnSchema>;
export type ScriptedExpectation = NonNullable<ScriptedTurn['expect']>;
