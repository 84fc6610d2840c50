import { ProviderError } from './provider-error.ts';

/** Which wait ran out: the first byte of the answer, or the silence between two chunks. */
export type TimeoutPhase = 'first-byte' | 'idle';

/** The provider was silent for longer than the configured timeout. */
export class ProviderTimeoutError extends ProviderError {
  override readonly name: string = 'ProviderTimeoutError';
  readonly phase: TimeoutPhase;
  readonly timeoutMs: number;

  constructor(fields: { provider: string; phase: TimeoutPhase; timeoutMs: number }) {
    const wait = fields.phase === 'first-byte' ? 'the first byte' : 'the next chunk';
    super(
      fields.provider,
      `${fields.provider} timed out waiting ${fields.timeoutMs} ms for ${wait}`,
    );
    this.phase = fields.phase;
    this.timeoutMs = fields.timeoutMs;
  }
}
