import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../anthropic/create-anthropic-provider.ts';
import { createOpenAiProvider } from '../openai/create-openai-provider.ts';
import { anthropicHttpError, anthropicStream } from '../testing/anthropic-wire.ts';
import { collectStream, joinText } from '../testing/collect-stream.ts';
import { contractRequest } from '../testing/contract-scenario.ts';
import { openAiHttpError, openAiStream } from '../testing/openai-wire.ts';
import type { SseTestServer } from '../testing/sse-test-server-types.ts';
import {
  startAnthropicTestServer,
  startOpenAiTestServer,
} from '../testing/start-provider-test-servers.ts';
import { withRetries } from './with-retries.ts';

let server: SseTestServer;
afterEach(async () => {
  await server.close();
});
const signal = () => new AbortController().signal;

describe('withRetries around the OpenAI adapter', () => {
  beforeEach(async () => {
    server = await startOpenAiTestServer();
  });

  it('honours a 429 retry-after in seconds, then streams the answer', async () => {
    server.enqueue(
      openAiHttpError(429, 'Rate limit reached', { 'retry-after': '3' }),
      openAiStream({ textDeltas: ['Back'] }),
    );
    const delays: number[] = [];
    const provider = withRetries(createOpenAiProvider({ model: 'm', baseUrl: server.baseUrl }), {
      sleep: async (ms) => void delays.push(ms),
    });
    const { parts, error } = await collectStream(
      provider.stream(contractRequest, { signal: signal() }),
    );
    expect(error).toBeUndefined();
    expect(joinText(parts)).toBe('Back');
    expect(delays).toEqual([3_000]);
    expect(server.requests).toHaveLength(2);
  });

  it('does not send the request again after the first delta, even for a retryable failure', async () => {
    server.enqueue(
      openAiStream({ textDeltas: ['Half'], interrupt: 'disconnect' }),
      openAiStream({ textDeltas: ['Again'] }),
    );
    const provider = withRetries(createOpenAiProvider({ model: 'm', baseUrl: server.baseUrl }), {
      sleep: async () => undefined,
    });
    const { parts, error } = await collectStream(
      provider.stream(contractRequest, { signal: signal() }),
    );
    expect(joinText(parts)).toBe('Half');
    expect(error).toMatchObject({ name: 'ProviderStreamError', retryable: true });
    expect(server.requests).toHaveLength(1);
  });
});

describe('withRetries around the Anthropic adapter', () => {
  beforeEach(async () => {
    server = await startAnthropicTestServer();
  });

  it('retries a 529 overload with backoff and gives up after maxAttempts with the last error', async () => {
    server.enqueue(
      anthropicHttpError(529, 'overloaded_error', 'Overloaded'),
      anthropicHttpError(529, 'overloaded_error', 'Overloaded'),
      anthropicHttpError(503, 'api_error', 'Unavailable'),
      anthropicStream({ textDeltas: ['never reached'] }),
    );
    const delays: number[] = [];
    const provider = withRetries(createAnthropicProvider({ model: 'm', baseUrl: server.baseUrl }), {
      maxAttempts: 3,
      baseDelayMs: 100,
      random: () => 0,
      sleep: async (ms) => void delays.push(ms),
    });
    const { error } = await collectStream(provider.stream(contractRequest, { signal: signal() }));
    expect(error).toMatchObject({ name: 'ProviderHttpError', status: 503 });
    expect(delays).toEqual([50, 100]);
    expect(server.requests).toHaveLength(3);
  });
});
