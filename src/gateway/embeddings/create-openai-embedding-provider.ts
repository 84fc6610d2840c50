import { ProviderConnectionError } from '../providers/errors/provider-connection-error.ts';
import { ProviderStreamError } from '../providers/errors/provider-stream-error.ts';
import { toProviderHttpError } from '../providers/http/to-provider-http-error.ts';
import { openAiDefaultBaseUrl } from '../providers/openai/create-openai-provider.ts';
import type { EmbeddingProvider } from './embedding-provider.ts';

export interface OpenAiEmbeddingOptions {
  model: string;
  apiKey?: string;
  baseUrl?: string;
  /** Asked of models that can shorten their vectors (text-embedding-3-*); Forja's HNSW column has 256. */
  dimensions?: number;
  fetch?: typeof globalThis.fetch;
}

interface EmbeddingResponse {
  data?: Array<{ index?: number; embedding?: unknown }>;
  usage?: { prompt_tokens?: number };
}

/** Embeddings over the OpenAI protocol (OpenAI, Ollama, vLLM, LM Studio). The key stays in this closure. */
export function createOpenAiEmbeddingProvider(options: OpenAiEmbeddingOptions): EmbeddingProvider {
  const baseUrl = (options.baseUrl ?? openAiDefaultBaseUrl).replace(/\/+$/, '');
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
  };
  const fetchFunction = options.fetch ?? globalThis.fetch;

  async function embed(texts: readonly string[], { signal }: { signal?: AbortSignal }) {
    const body = JSON.stringify({
      model: options.model,
      input: texts,
      ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }),
    });
    let response: Response;
    try {
      response = await fetchFunction(`${baseUrl}/embeddings`, {
        method: 'POST',
        headers,
        body,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      throw new ProviderConnectionError('openai', error);
    }
    if (!response.ok)
      throw await toProviderHttpError({
        provider: 'openai',
        response,
        secret: options.apiKey,
        now: Date.now(),
      });
    const parsed = (await response.json()) as EmbeddingResponse;
    const rows = [...(parsed.data ?? [])].sort(
      (left, right) => (left.index ?? 0) - (right.index ?? 0),
    );
    const vectors = rows.map((row) => row.embedding);
    if (
      vectors.length !== texts.length ||
      !vectors.every(
        (vector) => Array.isArray(vector) && vector.every((value) => typeof value === 'number'),
      )
    ) {
      throw new ProviderStreamError({
        provider: 'openai',
        message: `the embeddings response did not have one numeric vector per input (${texts.length} asked, ${vectors.length} given)`,
        retryable: false,
      });
    }
    return { vectors: vectors as number[][], inputTokens: parsed.usage?.prompt_tokens ?? null };
  }

  return { name: 'openai', model: options.model, embed };
}
