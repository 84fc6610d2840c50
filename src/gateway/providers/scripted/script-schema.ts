import { z } from 'zod';

/**
 * The scripted-model file, in the record's wire names (`tool_calls`, `input_tokens`). Objects are
 * strict so a misspelt key (`tool_call`) is refused instead of silently scripting an empty turn.
 */
const nonNegativeInteger = z.number().int('must be a whole number').nonnegative('must not be negative');

const scriptedToolCallSchema = z.strictObject({
  name: z.string().min(1, 'must be a non-empty tool name'),
  arguments: z.record(z.string(), z.unknown()).default({}),
});

const scriptedTurnSchema = z.strictObject({
  agent: z.string().min(1, 'must be a non-empty agent slug'),
  text: z.string().default(''),
  tool_calls: z.array(scriptedToolCallSchema).default([]),
  usage: z.strictObject({ input_tokens: nonNegativeInteger, output_tokens: nonNegativeInteger }).optional(),
});

export const scriptSchema = z.strictObject({ turns: z.array(scriptedTurnSchema) });

/** A validated script, defaults filled in. */
export type Script = z.output<typeof scriptSchema>;
/** A script as written by hand or in a test: `text`, `tool_calls` and `usage` may be left out. */
export type ScriptInput = z.input<typeof scriptSchema>;
export type ScriptedTurn = z.output<typeof scriptedTurnSchema>;
