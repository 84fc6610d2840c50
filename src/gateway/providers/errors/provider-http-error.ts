import { ProviderError } from './provider-error.ts';

/** The provider answered the request with a non-2xx status before any stream began. */
export class ProviderHttpError extends ProviderError {
  override readonly name: string = 'ProviderHttpError';
  readonly status: number;
  /** How long the provider asked us to wait (`retry-after-ms` / `retry-after`), when it said. */
  readonly retryAfterMs: number | undefined;
  /** The response body as text, truncated and with the API key redacted. */
  readonly body: string;

  constructor(fields: {
    provider: string;
    status: number;
    retryAfterMs?: number;
    body: string;
    detail?: string;
  }) {
    const detail = fields.detail === undefined ? '' : `: ${fields.detail}`;
    super(fields.provider, `${fields.provider} answered HTTP ${fields.status}${detail}`);
    this.status = fields.status;
    this.retryAfterMs = fields.retryAfterMs;
    this.body = fields.body;
  }
}
