import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderCancelledError } from '../errors/provider-cancelled-error.ts';
import { ProviderHttpError } from '../errors/provider-http-error.ts';
import { ProviderTimeoutError } from '../errors/provider-timeout-error.ts';
import {
  anthropicEvent,
  anthropicHttpError,
  anthropicMessageStart,
  anthropicStream,
} from '../testing/anthropic-wire.ts';
import { collectStream, joinText } from '../testing/collect-stream.ts';
import { contractRequest } from '../testing/contract-scenario.ts';
import type { SseTestServer } from '../testing/sse-test-server-types.ts';
import { startAnthropicTestServer } from '../testing/start-provider-test-servers.ts';
import { createManualTimeoutScheduler } from '../testing/manual-timeout-scheduler.ts';
import {
  createAnthropicProvider,
  type AnthropicProviderOptions,
} from './create-anthropic-provider.ts';

let server: SseTestServer;
beforeEach(async () => {
  server = await startAnthropicTestServer();
});
afterEach(async () => {
  await server.close();
});

const apiKey = 'sk-ant-test-0123456789';
const provider = (options: Partial<AnthropicProviderOptions> = {}) =>
  createAnthropicProvider({
    model: 'claude-sonnet-4-5',
    apiKey,
    baseUrl: server.baseUrl,
    ...options,
  });
const run = (options: Partial<AnthropicProviderOptions> = {}) =>
  collectStream(
    provider(options).stream(contractRequest, { signal: new AbortController().signal }),
  );

describe('createAnthropicProvider over HTTP', () => {
  it('POSTs the streaming body to {base}/v1/messages with x-api-key and anthropic-version', async () => {
    server.enqueue(
      anthropicStream({ textDeltas: ['Olá'], usage: { inputTokens: 3, outputTokens: 1 } }),
    );
    const { error } = await run();
    expect(error).toBeUndefined();
    const [received] = server.requests;
    expect(received).toMatchObject({ method: 'POST', path: '/v1/messages' });
    expect(received?.headers).toMatchObject({
      'x-api-key': apiKey,
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
    });
    expect(received?.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      system: contractRequest.system,
      max_tokens: contractRequest.maxOutputTokens,
      stream: true,
      tools: [{ name: 'emit_artifact', input_schema: { type: 'object' } }],
    });
  });

  it('reports a 429 with its retry-after', async () => {
    server.enqueue(
      anthropicHttpError(
        429,
        'rate_limit_error',
        'Number of requests has exceeded your rate limit',
        { 'retry-after': '7' },
      ),
    );
    const { error } = await run();
    expect(error).toBeInstanceOf(ProviderHttpError);
    expect(error).toMatchObject({
      status: 429,
      retryAfterMs: 7000,
      message: expect.stringContaining('exceeded your rate limit'),
    });
  });

  it('reports a 529 overload as a ProviderHttpError', async () => {
    server.enqueue(anthropicHttpError(529, 'overloaded_error', 'Overloaded'));
    const { error } = await run();
    expect(error).toMatchObject({ name: 'ProviderHttpError', status: 529 });
  });

  it('passes on an error event after the text it already streamed', async () => {
    server.enqueue(
      anthropicStream({
        textDeltas: ['Half ', 'way'],
        interrupt: { errorType: 'overloaded_error', message: 'Overloaded' },
      }),
    );
    const { parts, error } = await run();
    expect(joinText(parts)).toBe('Half way');
    expect(error).toMatchObject({
      name: 'ProviderStreamError',
      errorType: 'overloaded_error',
      retryable: true,
    });
  });

  it('times out when the stream goes silent, and hangs up', async () => {
    server.enqueue(anthropicStream({ textDeltas: ['Hmm'], interrupt: 'stall' }));
    const timers = createManualTimeoutScheduler();
    const iterator = provider({
      timeouts: { firstByteTimeoutMs: 1_000, idleTimeoutMs: 2_000 },
      scheduleTimeout: timers.schedule,
    })
      .stream(contractRequest, { signal: new AbortController().signal })
      [Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text-delta', text: 'Hmm' });
    const next = iterator.next();
    await timers.fire(2_000);
    await expect(next).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(await server.requests[0]?.outcome).toBe('client-closed');
  });

  it('closes the HTTP request when the caller aborts mid-stream', async () => {
    server.enqueue(anthropicStream({ textDeltas: ['Thinking'], interrupt: 'stall' }));
    const controller = new AbortController();
    const iterator = provider()
      .stream(contractRequest, { signal: controller.signal })
      [Symbol.asyncIterator]();
    await iterator.next();
    controller.abort();
    await expect(iterator.next()).rejects.toBeInstanceOf(ProviderCancelledError);
    expect(await server.requests[0]?.outcome).toBe('client-closed');
  });

  it('yields nothing more after an abort, even parts of a chunk already received', async () => {
    const steps = [
      anthropicMessageStart({ inputTokens: 5, outputTokens: 1 }),
      anthropicEvent({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'text', text: '' },
      }),
      ...['one ', 'two ', 'three'].map((text) =>
        anthropicEvent({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text },
        }),
      ),
    ];
    // One write, so all the deltas arrive in the same network chunk.
    server.enqueue({
      kind: 'stream',
      steps: [
        { frame: steps.map((step) => ('frame' in step ? step.frame : '')).join('') },
        { stall: true },
      ],
    });
    const controller = new AbortController();
    const iterator = provider()
      .stream(contractRequest, { signal: controller.signal })
      [Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text-delta', text: 'one ' });
    controller.abort();
    await expect(iterator.next()).rejects.toBeInstanceOf(ProviderCancelledError);
  });
});
