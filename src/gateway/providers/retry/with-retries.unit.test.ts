import { describe, expect, it } from 'vitest';
import { ProviderCancelledError } from '../errors/provider-cancelled-error.ts';
import { ProviderConnectionError } from '../errors/provider-connection-error.ts';
import { ProviderHttpError } from '../errors/provider-http-error.ts';
import { ProviderStreamError } from '../errors/provider-stream-error.ts';
import type { ModelProvider, ModelStreamPart } from '../model-provider.ts';
import { collectStream } from '../testing/collect-stream.ts';
import { contractRequest } from '../testing/contract-scenario.ts';
import { withRetries, type RetryOptions } from './with-retries.ts';

type Attempt = { parts?: ModelStreamPart[]; error?: unknown };

const success: Attempt = {
  parts: [
    { type: 'text-delta', text: 'ok' },
    { type: 'usage', inputTokens: 1, outputTokens: 1, estimated: false },
    { type: 'finish', reason: 'stop' },
  ],
};
const rateLimited = (retryAfterMs?: number): Attempt => ({
  error: new ProviderHttpError({
    provider: 'fake',
    status: 429,
    body: '',
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  }),
});
const serverError = (status = 500): Attempt => ({
  error: new ProviderHttpError({ provider: 'fake', status, body: `attempt ${status}` }),
});

/** A provider playing one scripted attempt per call, counting the calls. */
function fakeProvider(attempts: Attempt[]): ModelProvider & { calls: number } {
  const fake = {
    name: 'fake',
    model: 'fake-model',
    calls: 0,
    async *stream() {
      const attempt = attempts[fake.calls] ?? { error: new Error('no attempt scripted') };
      fake.calls += 1;
      yield* attempt.parts ?? [];
      if (attempt.error !== undefined) throw attempt.error;
    },
  };
  return fake;
}

function recordingSleep(): { sleep: NonNullable<RetryOptions['sleep']>; delays: number[] } {
  const delays: number[] = [];
  return { delays, sleep: async (ms) => void delays.push(ms) };
}

const run = (provider: ModelProvider, signal = new AbortController().signal) =>
  collectStream(provider.stream(contractRequest, { signal }));

describe('withRetries', () => {
  it('waits exactly the retry-after a 429 asked for, then succeeds', async () => {
    const inner = fakeProvider([rateLimited(2_000), success]);
    const { sleep, delays } = recordingSleep();
    const { parts, error } = await run(withRetries(inner, { sleep }));
    expect(error).toBeUndefined();
    expect(parts).toEqual(success.parts);
    expect(delays).toEqual([2_000]);
    expect(inner.calls).toBe(2);
  });

  it('backs off exponentially with jitter, capped, when no retry-after was given', async () => {
    const inner = fakeProvider([
      serverError(),
      serverError(502),
      serverError(503),
      serverError(504),
      success,
    ]);
    const { sleep, delays } = recordingSleep();
    const randoms = [0, 1, 0.5, 1];
    const random = () => randoms.shift() ?? 0;
    await run(
      withRetries(inner, { sleep, random, maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 500 }),
    );
    // Backoffs 100, 200, 400, 500 (capped); half fixed, half scaled by random.
    expect(delays).toEqual([50, 200, 300, 500]);
  });

  it('never retries once a part reached the caller', async () => {
    const failure = new ProviderStreamError({
      provider: 'fake',
      message: 'overloaded',
      retryable: true,
    });
    const inner = fakeProvider([
      { parts: [{ type: 'text-delta', text: 'Hel' }], error: failure },
      success,
    ]);
    const { sleep, delays } = recordingSleep();
    const { parts, error } = await run(withRetries(inner, { sleep }));
    expect(parts).toEqual([{ type: 'text-delta', text: 'Hel' }]);
    expect(error).toBe(failure);
    expect(inner.calls).toBe(1);
    expect(delays).toEqual([]);
  });

  it('gives up after maxAttempts with the last error', async () => {
    const last = serverError(503);
    const inner = fakeProvider([serverError(500), serverError(502), last, success]);
    const { sleep, delays } = recordingSleep();
    const { error } = await run(withRetries(inner, { sleep, maxAttempts: 3 }));
    expect(error).toBe(last.error);
    expect(inner.calls).toBe(3);
    expect(delays).toHaveLength(2);
  });

  it('does not retry a request the provider refused as wrong', async () => {
    const inner = fakeProvider([serverError(400), success]);
    const { error } = await run(withRetries(inner, recordingSleep()));
    expect(error).toMatchObject({ status: 400 });
    expect(inner.calls).toBe(1);
  });

  it('retries a connection that could not be made', async () => {
    const inner = fakeProvider([
      { error: new ProviderConnectionError('fake', new Error('ECONNREFUSED')) },
      success,
    ]);
    const { error } = await run(withRetries(inner, recordingSleep()));
    expect(error).toBeUndefined();
    expect(inner.calls).toBe(2);
  });

  it('fails at once when retry-after is longer than it is willing to wait', async () => {
    const inner = fakeProvider([rateLimited(120_000), success]);
    const { sleep, delays } = recordingSleep();
    const { error } = await run(withRetries(inner, { sleep, maxRetryAfterMs: 60_000 }));
    expect(error).toMatchObject({ status: 429, retryAfterMs: 120_000 });
    expect(delays).toEqual([]);
  });

  it('tells onRetry before each wait', async () => {
    const notices: unknown[] = [];
    const inner = fakeProvider([rateLimited(10), success]);
    await run(
      withRetries(inner, { ...recordingSleep(), onRetry: (notice) => notices.push(notice) }),
    );
    expect(notices).toEqual([
      { provider: 'fake', attempt: 1, delayMs: 10, error: expect.any(ProviderHttpError) },
    ]);
  });

  it('stops waiting and reports cancellation when aborted during the wait, even if the sleep ignores the signal', async () => {
    const controller = new AbortController();
    const inner = fakeProvider([rateLimited(30_000), success]);
    const sleep = () => {
      controller.abort();
      return new Promise<void>(() => undefined);
    };
    const { error } = await run(withRetries(inner, { sleep }), controller.signal);
    expect(error).toBeInstanceOf(ProviderCancelledError);
    expect(inner.calls).toBe(1);
  });

  it('keeps the wrapped provider’s name and model', () => {
    const wrapped = withRetries(fakeProvider([]));
    expect([wrapped.name, wrapped.model]).toEqual(['fake', 'fake-model']);
  });
});
