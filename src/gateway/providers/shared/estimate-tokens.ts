import type { ModelRequest } from '../model-provider.ts';

/**
 * The project's documented estimate, ceil(utf8_bytes / 4), used whenever a provider reports no usage.
 * Results built from it are always flagged `estimated: true`.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 4);
}

/** Estimated input tokens of a request: everything the provider would read (system, history, tools). */
export function estimateRequestTokens(request: ModelRequest): number {
  const history = request.messages.length === 0 ? '' : JSON.stringify(request.messages);
  const tools = request.tools.length === 0 ? '' : JSON.stringify(request.tools);
  return estimateTokens(request.system + history + tools);
}
