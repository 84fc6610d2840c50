/** What Ollama's `POST /api/show` says of a model's window and abilities. */
export type OllamaModelInfo = {
  /** `num_ctx` from the model's parameters (a Modelfile's `PARAMETER num_ctx`), or null when not set. */
  numCtx: number | null;
  /** The model's own length (`model_info["<architecture>.context_length"]`), or null. */
  contextLength: number | null;
  /** `capabilities` (`completion`, `tools`, …), or null from servers too old to list them. */
  capabilities: string[] | null;
};

/**
 * Reads Ollama's `/api/show` answer. `parameters` is text, one `name value` per line
 * (`"num_ctx 8192\nstop \"<|im_end|>\""`); `model_info` keys the length by architecture
 * (`"qwen2.context_length": 32768`). Anything else (another server, a broken body) reads as null fields.
 */
export function readOllamaShow(body: unknown): OllamaModelInfo {
  const record = isRecord(body) ? body : {};
  return {
    numCtx: numCtxOf(record['parameters']),
    contextLength: contextLengthOf(record['model_info']),
    capabilities: Array.isArray(record['capabilities'])
      ? record['capabilities'].filter((entry): entry is string => typeof entry === 'string')
      : null,
  };
}

/** The `context_length` of `model` among the models Ollama runs now (`GET /api/ps`, newer servers), or null. */
export function readOllamaRunningContext(body: unknown, model: string): number | null {
  const models = isRecord(body) && Array.isArray(body['models']) ? body['models'] : [];
  for (const entry of models) {
    if (!isRecord(entry) || (entry['name'] !== model && entry['model'] !== model)) continue;
    return positiveInteger(entry['context_length']);
  }
  return null;
}

function numCtxOf(parameters: unknown): number | null {
  if (typeof parameters !== 'string') return null;
  for (const line of parameters.split('\n')) {
    const match = /^\s*num_ctx\s+(\d+)\s*$/.exec(line);
    if (match) return positiveInteger(Number(match[1]));
  }
  return null;
}

function contextLengthOf(modelInfo: unknown): number | null {
  if (!isRecord(modelInfo)) return null;
  for (const [key, value] of Object.entries(modelInfo))
    if (key.endsWith('.context_length')) return positiveInteger(value);
  return null;
}

function positiveInteger(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
