/** The outcome of reading a model's tool-call arguments. */
export type ParsedToolCallArguments =
  | { arguments: Record<string, unknown>; parseError?: undefined }
  | { arguments: undefined; parseError: string };

/**
 * Reads the arguments a model wrote for a tool call. Never throws: a model that writes broken JSON is
 * an expected outcome the loop reports back to the model, not a crash. Empty text counts as `{}`
 * because some OpenAI-compatible servers send "" for tools without parameters.
 */
export function parseToolCallArguments(rawArguments: string): ParsedToolCallArguments {
  if (rawArguments.trim() === '') return { arguments: {} };
  let value: unknown;
  try {
    value = JSON.parse(rawArguments);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { arguments: undefined, parseError: `tool arguments are not valid JSON: ${reason}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { arguments: undefined, parseError: 'tool arguments must be a JSON object' };
  }
  return { arguments: value as Record<string, unknown> };
}
