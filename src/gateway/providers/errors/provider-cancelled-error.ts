import { ProviderError } from './provider-error.ts';

/** The caller aborted the call through its AbortSignal. */
export class ProviderCancelledError extends ProviderError {
  override readonly name: string = 'ProviderCancelledError';

  constructor(provider: string) {
    super(provider, `${provider} call was cancelled`);
  }
}
