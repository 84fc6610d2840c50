/**
 * Base of the errors a model call can end with. Subclasses carry a stable `name` (safe to switch on
 * across module copies, unlike `instanceof`) and typed fields instead of details buried in a message.
 */
export class ProviderError extends Error {
  override readonly name: string = 'ProviderError';
  /** The provider that failed: `openai`, `anthropic`, `scripted`. */
  readonly provider: string;

  constructor(provider: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.provider = provider;
  }
}
