/**
 * What a model server says of a model's context window, read by the probe (`create-model-probe.ts`) and used
 * by the ContextManager unless a `FORJA_MODEL_CONTEXT_TOKENS` setting overrides it. Structurally the harness's
 * `ServerContext` (the gateway and the harness do not import each other; composition passes it across).
 */
export type ServerWindow = {
  /** The window Forja sizes requests to. */
  tokens: number;
  /** Where the figure came from, as people read it: `Ollama num_ctx`, `vLLM max_model_len`, … */
  from: string;
  /**
   * The length past which the server cuts a prompt without saying so (Ollama's `num_ctx`), or null when it
   * refuses a longer one with an error instead (vLLM, OpenRouter).
   */
  truncatesAt: number | null;
  /** Something the person should know about the figure (an assumed default, a `num_ctx` below the model's). */
  note: string | null;
};

/** Ollama's `num_ctx` when neither the model's parameters nor its running instance say (its smallest default). */
export const OLLAMA_ASSUMED_NUM_CTX = 4096;
