import { ProviderError } from './provider-error.ts';

/** The request never got an answer: DNS failure, refused or reset connection. Retryable. */
export class ProviderConnectionError extends ProviderError {
  override readonly name: string = 'ProviderConnectionError';

  constructor(provider: string, cause: unknown) {
    const reason = describeCause(cause);
    super(provider, `could not reach ${provider}: ${reason}`, { cause });
  }
}

// undici reports "fetch failed" and hides the useful part (ECONNREFUSED, ENOTFOUND) in `cause`.
function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : '';
  return `${cause.message}${inner}`;
}
