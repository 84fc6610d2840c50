import type { OllamaModelInfo } from './read-ollama-show.ts';
import { OLLAMA_ASSUMED_NUM_CTX, type ServerWindow } from './server-window.ts';

/**
 * The window of a model Ollama serves. Ollama runs each model with `num_ctx` tokens and cuts a longer prompt
 * without a word, whatever the model could take; its OpenAI-compatible `/v1/chat/completions` has no field to
 * change it per request (the native `/api/chat` takes `options.num_ctx`). So the window is the `num_ctx` it
 * runs with: from the model's parameters, else from its running instance (`/api/ps`), else Ollama's smallest
 * default, said as an assumption. A `num_ctx` below the model's own length is said too.
 */
export function ollamaWindow(
  model: string,
  info: OllamaModelInfo,
  runningContext: number | null,
): ServerWindow {
  const known = info.numCtx ?? runningContext;
  const numCtx = known ?? Math.min(OLLAMA_ASSUMED_NUM_CTX, info.contextLength ?? Infinity);
  const from =
    info.numCtx !== null
      ? 'Ollama num_ctx'
      : runningContext !== null
        ? 'Ollama num_ctx of the running model'
        : "Ollama's default num_ctx (assumed)";
  const note =
    known === null
      ? `Ollama does not say which num_ctx it runs ${model} with: Forja assumes ${numCtx} tokens (Ollama's smallest default) and sizes requests to it. Set PARAMETER num_ctx in its Modelfile (or OLLAMA_CONTEXT_LENGTH on the Ollama server) and FORJA_MODEL_CONTEXT_TOKENS to that value for more.`
      : info.contextLength !== null && numCtx < info.contextLength
        ? `Ollama runs ${model} with num_ctx ${numCtx} though the model takes ${info.contextLength}: Forja keeps requests within ${numCtx}. Raise PARAMETER num_ctx (or OLLAMA_CONTEXT_LENGTH) for a larger window.`
        : null;
  return { tokens: numCtx, from, truncatesAt: numCtx, note };
}
