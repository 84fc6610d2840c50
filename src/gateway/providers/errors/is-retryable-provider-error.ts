import { ProviderConnectionError } from './provider-connection-error.ts';
import { ProviderHttpError } from './provider-http-error.ts';
import { ProviderStreamError } from './provider-stream-error.ts';
import { ProviderTimeoutError } from './provider-timeout-error.ts';

/**
 * Whether trying the same call again may succeed: rate limits (429), request timeouts (408), server
 * errors (5xx, including Anthropic's 529 overload), lost connections, timeouts and transient stream
 * errors. A 4xx other than 408/429 means the request itself is wrong, so repeating it only wastes time.
 */
export function isRetryableProviderError(error: unknown): boolean {
  if (error instanceof ProviderHttpError) {
    return error.status === 408 || error.status === 429 || error.status >= 500;
  }
  if (error instanceof ProviderStreamError) return error.retryable;
  return error instanceof ProviderConnectionError || error instanceof ProviderTimeoutError;
}
