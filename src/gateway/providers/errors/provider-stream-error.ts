import { ProviderError } from './provider-error.ts';

/**
 * The stream broke after it began: an error event from the provider, a malformed chunk, a lost
 * connection, or an end without a finish. `retryable` is true for transient causes (overload, lost
 * connection); a retry is only ever attempted while no part has reached the caller.
 */
export class ProviderStreamError extends ProviderError {
  override readonly name: string = 'ProviderStreamError';
  /** The provider's own error type when it sent one (`overloaded_error`, `server_error`, …). */
  readonly errorType: string | undefined;
  readonly retryable: boolean;

  constructor(fields: {
    provider: string;
    message: string;
    errorType?: string;
    retryable: boolean;
    cause?: unknown;
  }) {
    super(fields.provider, `${fields.provider} stream failed: ${fields.message}`, {
      cause: fields.cause,
    });
    this.errorType = fields.errorType;
    this.retryable = fields.retryable;
  }
}
