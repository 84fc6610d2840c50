import type { ModelRequest } from '../model-provider.ts';

/**
 * The project's documented estimate, ceil(utf8_bytes / 4), used whenever a provider reports no usage.
 * Results built from it are always flagged `estimated: true`.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 4);
}

/** UTF-8 bytes of everything the provider would read of a request (system, history, tools), serialised once. */
export function requestBytes(request: ModelRequest): number {
  const history = request.messages.length === 0 ? '' : JSON.stringify(request.messages);
  const tools = request.tools.length === 0 ? '' : JSON.stringify(request.tools);
  return Buffer.byteLength(request.system + history + tools, 'utf8');
}

/** Estimated input tokens of a request, ceil(bytes / 4); pass `bytes` when `requestBytes` was already taken. */
export function estimateRequestTokens(
  request: ModelRequest,
  bytes = requestBytes(request),
): number {
  return Math.ceil(bytes / 4);
}

/** Tokens a provider may add around each message and the request (role markers, separators): generous. */
const OVERHEAD_PER_MESSAGE = 8;

/**
 * An upper bound of a request's input tokens, for reserving budget (ADR 0131): a byte-level BPE token covers
 * at least one UTF-8 byte, so the bytes of what the provider reads, plus a per-message overhead, are never
 * fewer than the provider's count — where bytes/4 can be three times short (code, JSON, non-Latin text).
 */
export function reservableInputTokens(
  request: ModelRequest,
  bytes = requestBytes(request),
): number {
  return bytes + OVERHEAD_PER_MESSAGE * (request.messages.length + 1);
}
