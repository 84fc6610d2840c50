/**
 * One model turn described independently of any provider, so the same scenario can be played by the
 * OpenAI and the Anthropic test servers. Each builder turns it into that provider's real wire events.
 */
export type WireTurn = {
  /** Text as the deltas the server sends, in order. */
  textDeltas?: string[];
  /** Tool calls, their JSON arguments split into the chunks the server sends. */
  toolCalls?: Array<{ id: string; name: string; argumentChunks: string[] }>;
  /** Omit to send no usage at all (lenient servers do that). */
  usage?: {
    inputTokens: number;
    outputTokens: number;
    /** Of the input, tokens read from the prompt cache, reported the provider's way. */
    cachedInputTokens?: number;
    /** Of the input, tokens written to the prompt cache (Anthropic reports them; OpenAI does not). */
    cacheWriteInputTokens?: number;
  };
  /** The provider's own finish wording (`length`, `max_tokens`…); derived from the content when omitted. */
  finishReason?: string;
  /** What breaks the stream right after the text deltas, instead of letting it finish. */
  interrupt?: 'stall' | 'disconnect' | { errorType: string; message: string };
};

/** Cuts text into pieces of `size` characters (the last may be shorter), never empty pieces. */
export function chunkText(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < text.length; start += size)
    chunks.push(text.slice(start, start + size));
  return chunks;
}
