import { isRetryableProviderError } from '../errors/is-retryable-provider-error.ts';
import { ProviderHttpError } from '../errors/provider-http-error.ts';
import type { ModelProvider, ModelRequest, ModelStreamPart } from '../model-provider.ts';
import { computeRetryDelay, type BackoffSettings } from './compute-retry-delay.ts';
import { realSleep, sleepUnlessCancelled, type Sleep } from './sleep-unless-cancelled.ts';

/** What `onRetry` is told before each wait, for logs and traces. */
export type RetryNotice = { provider: string; attempt: number; delayMs: number; error: unknown };

export type RetryOptions = Partial<BackoffSettings> & {
  /** Attempts in total, the first included. */
  maxAttempts?: number;
  sleep?: Sleep;
  onRetry?: (notice: RetryNotice) => void;
};

export const defaultRetryOptions = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
} as const;

/**
 * Wraps a provider so a call that fails with a transient error (429, 408, 5xx, lost connection,
 * timeout, overload) is tried again, but only while no part has reached the caller: after the first
 * delta a retry would show the person the same text twice, so the error is passed on instead.
 * After `maxAttempts` the last error is thrown as it was.
 */
export function withRetries(provider: ModelProvider, options: RetryOptions = {}): ModelProvider {
  const maxAttempts = options.maxAttempts ?? defaultRetryOptions.maxAttempts;
  const settings: BackoffSettings = {
    baseDelayMs: options.baseDelayMs ?? defaultRetryOptions.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? defaultRetryOptions.maxDelayMs,
    maxRetryAfterMs: options.maxRetryAfterMs ?? defaultRetryOptions.maxRetryAfterMs,
    random: options.random ?? Math.random,
  };
  const sleep = options.sleep ?? realSleep;

  async function* stream(
    request: ModelRequest,
    { signal }: { signal: AbortSignal },
  ): AsyncGenerator<ModelStreamPart> {
    for (let attempt = 1; ; attempt += 1) {
      let yieldedAnything = false;
      try {
        for await (const part of provider.stream(request, { signal })) {
          yieldedAnything = true;
          yield part;
        }
        return;
      } catch (error) {
        if (yieldedAnything || attempt >= maxAttempts || !isRetryableProviderError(error))
          throw error;
        const retryAfterMs = error instanceof ProviderHttpError ? error.retryAfterMs : undefined;
        const delayMs = computeRetryDelay({ attempt, retryAfterMs, settings });
        if (delayMs === undefined) throw error;
        options.onRetry?.({ provider: provider.name, attempt, delayMs, error });
        await sleepUnlessCancelled({ ms: delayMs, signal, sleep, provider: provider.name });
      }
    }
  }

  return { name: provider.name, model: provider.model, stream };
}
