import { ProviderHttpError } from '../errors/provider-http-error.ts';
import { redactSecret } from '../shared/redact-secret.ts';
import { parseRetryAfter } from './parse-retry-after.ts';

// Error bodies are short in practice; the cap keeps a misbehaving proxy's HTML page out of logs.
const maximumBodyCharacters = 4_000;

/** Turns a non-2xx response into a ProviderHttpError, reading the provider's own error message. */
export async function toProviderHttpError(fields: {
  provider: string;
  response: Response;
  secret: string | undefined;
  now: number;
}): Promise<ProviderHttpError> {
  const text = await fields.response.text().catch(() => '');
  const body = redactSecret(text, fields.secret).slice(0, maximumBodyCharacters);
  const retryAfterMs = parseRetryAfter(fields.response.headers, fields.now);
  return new ProviderHttpError({
    provider: fields.provider,
    status: fields.response.status,
    body,
    detail: readErrorMessage(body) ?? (fields.response.statusText || undefined),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

// Both OpenAI (`{error: {message}}`) and Anthropic (`{type: 'error', error: {message}}`) nest it alike; vLLM
// (and servers built like it) answer a flat `{object: 'error', message, type, code}`.
function readErrorMessage(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    if (!('error' in parsed))
      return 'message' in parsed && typeof parsed.message === 'string' ? parsed.message : undefined;
    const error = parsed.error;
    if (typeof error === 'string') return error;
    if (
      typeof error === 'object' &&
      error !== null &&
      'message' in error &&
      typeof error.message === 'string'
    ) {
      return error.message;
    }
    return undefined;
  } catch {
    return undefined;
  }
}
