/** The fields OpenAI-compatible model lists use for a model's window, in the order they are trusted. */
const WINDOW_FIELDS: ReadonlyArray<{ path: readonly string[]; from: string }> = [
  { path: ['max_model_len'], from: 'vLLM max_model_len' },
  { path: ['context_length'], from: 'context_length' },
  { path: ['top_provider', 'context_length'], from: 'top_provider.context_length' },
  { path: ['context_window'], from: 'context_window' },
  { path: ['max_context_length'], from: 'max_context_length' },
];

/**
 * The window an OpenAI-compatible `GET /models` answer gives for `model`: vLLM's `max_model_len`, OpenRouter's
 * `context_length` (or its `top_provider`'s), and the `context_window` / `max_context_length` some other
 * servers use. Null when the model is not listed or no field says (OpenAI's own list does not).
 */
export function readListedWindow(
  body: unknown,
  model: string,
): { tokens: number; from: string } | null {
  const data = isRecord(body) && Array.isArray(body['data']) ? body['data'] : [];
  const entry = data.find((item) => isRecord(item) && item['id'] === model);
  if (!isRecord(entry)) return null;
  for (const field of WINDOW_FIELDS) {
    let value: unknown = entry;
    for (const key of field.path) value = isRecord(value) ? value[key] : undefined;
    if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0)
      return { tokens: value, from: field.from };
  }
  return null;
}

/** Whether `model` is among the ids of a `GET /models` answer (null when the answer lists nothing readable). */
export function isListedModel(body: unknown, model: string): boolean | null {
  const data = isRecord(body) && Array.isArray(body['data']) ? body['data'] : null;
  if (data === null || data.length === 0) return null;
  return data.some((item) => isRecord(item) && item['id'] === model);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
