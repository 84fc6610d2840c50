/**
 * The port of a provider that turns texts into vectors (`POST /v1/embeddings` on OpenAI-compatible servers).
 * Only the embedding gateway calls it, metered like a model turn.
 */
export interface EmbeddingProvider {
  /** `openai`: with `model`, what metering records. */
  readonly name: string;
  readonly model: string;
  /** One vector per text, in order; `inputTokens` when the provider reports usage. */
  embed(
    texts: readonly string[],
    options: { signal?: AbortSignal },
  ): Promise<{ vectors: number[][]; inputTokens: number | null }>;
}
