import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderCancelledError } from '../errors/provider-cancelled-error.ts';
import { ProviderConnectionError } from '../errors/provider-connection-error.ts';
import { ProviderHttpError } from '../errors/provider-http-error.ts';
import { ProviderStreamError } from '../errors/provider-stream-error.ts';
import { ProviderTimeoutError } from '../errors/provider-timeout-error.ts';
import { collectStream, joinText } from '../testing/collect-stream.ts';
import { contractRequest } from '../testing/contract-scenario.ts';
import { openAiChunk, openAiDone, openAiHttpError, openAiStream } from '../testing/openai-wire.ts';
import type { SseTestServer } from '../testing/sse-test-server-types.ts';
import { startOpenAiTestServer } from '../testing/start-provider-test-servers.ts';
import { createManualTimeoutScheduler } from '../testing/manual-timeout-scheduler.ts';
import { createOpenAiProvider, type OpenAiProviderOptions } from './create-openai-provider.ts';

let server: SseTestServer;
beforeEach(async () => {
  server = await startOpenAiTestServer();
});
afterEach(async () => {
  await server.close();
});

const apiKey = 'sk-test-0123456789';
const provider = (options: Partial<OpenAiProviderOptions> = {}) =>
  createOpenAiProvider({ model: 'gpt-4o-mini', apiKey, baseUrl: server.baseUrl, ...options });
const run = (options: Partial<OpenAiProviderOptions> = {}, signal = new AbortController().signal) =>
  collectStream(provider(options).stream(contractRequest, { signal }));

describe('createOpenAiProvider over HTTP', () => {
  it('POSTs the streaming body to {base}/chat/completions with a bearer key', async () => {
    server.enqueue(
      openAiStream({ textDeltas: ['Hi'], usage: { inputTokens: 3, outputTokens: 1 } }),
    );
    const { error } = await run();
    expect(error).toBeUndefined();
    const [received] = server.requests;
    expect(received).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(received?.headers).toMatchObject({
      authorization: `Bearer ${apiKey}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    });
    expect(received?.body).toMatchObject({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: contractRequest.maxOutputTokens,
      tools: [{ type: 'function', function: { name: 'emit_artifact' } }],
    });
  });

  it('sends no authorization header without a key (Ollama, vLLM, LM Studio)', async () => {
    server.enqueue(openAiStream({ textDeltas: ['Hi'] }));
    await run({ apiKey: undefined });
    expect(server.requests[0]?.headers).not.toHaveProperty('authorization');
  });

  it('uses the field the caller chose for the output limit', async () => {
    server.enqueue(openAiStream({ textDeltas: ['Hi'] }));
    await run({ maxTokensField: 'max_completion_tokens' });
    expect(server.requests[0]?.body).toMatchObject({
      max_completion_tokens: contractRequest.maxOutputTokens,
    });
    expect(server.requests[0]?.body).not.toHaveProperty('max_tokens');
  });

  it('reports a 429 with its retry-after and the provider message', async () => {
    server.enqueue(
      openAiHttpError(429, 'Rate limit reached for gpt-4o-mini', { 'retry-after': '2' }),
    );
    const { parts, error } = await run();
    expect(parts).toEqual([]);
    expect(error).toBeInstanceOf(ProviderHttpError);
    expect(error).toMatchObject({
      status: 429,
      retryAfterMs: 2000,
      message: expect.stringContaining('Rate limit reached'),
    });
  });

  it('prefers retry-after-ms when the server sends it', async () => {
    server.enqueue(
      openAiHttpError(429, 'slow down', { 'retry-after-ms': '350', 'retry-after': '1' }),
    );
    const { error } = await run();
    expect(error).toMatchObject({ status: 429, retryAfterMs: 350 });
  });

  it('reports a 500 as a ProviderHttpError with the body', async () => {
    server.enqueue(openAiHttpError(500, 'The server had an error'));
    const { error } = await run();
    expect(error).toMatchObject({
      name: 'ProviderHttpError',
      status: 500,
      body: expect.stringContaining('server_error'),
    });
  });

  it('never repeats the API key a 401 body echoed', async () => {
    server.enqueue(openAiHttpError(401, `Incorrect API key provided: ${apiKey}.`));
    const { error } = await run();
    expect(error).toBeInstanceOf(ProviderHttpError);
    expect(
      JSON.stringify({ ...(error as ProviderHttpError), message: (error as Error).message }),
    ).not.toContain(apiKey);
    expect((error as ProviderHttpError).body).toContain('[redacted]');
  });

  it('times out waiting for the first byte, and hangs up', async () => {
    server.enqueue({ kind: 'hang' });
    const timers = createManualTimeoutScheduler();
    const outcome = run({
      timeouts: { firstByteTimeoutMs: 1_000, idleTimeoutMs: 2_000 },
      scheduleTimeout: timers.schedule,
    });
    const received = await server.waitForRequest(0);
    await timers.fire(1_000);
    const { parts, error } = await outcome;
    expect(parts).toEqual([]);
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect(error).toMatchObject({ phase: 'first-byte', timeoutMs: 1_000 });
    expect(await received.outcome).toBe('client-closed');
  });

  it('times out when the stream goes silent between chunks, after the text already sent', async () => {
    server.enqueue(openAiStream({ textDeltas: ['Thinking'], interrupt: 'stall' }));
    const timers = createManualTimeoutScheduler();
    const stream = provider({
      timeouts: { firstByteTimeoutMs: 1_000, idleTimeoutMs: 2_000 },
      scheduleTimeout: timers.schedule,
    });
    const iterator = stream
      .stream(contractRequest, { signal: new AbortController().signal })
      [Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text-delta', text: 'Thinking' });
    const next = iterator.next();
    await timers.fire(2_000);
    await expect(next).rejects.toMatchObject({
      name: 'ProviderTimeoutError',
      phase: 'idle',
      timeoutMs: 2_000,
    });
    expect(await server.requests[0]?.outcome).toBe('client-closed');
  });

  it('times out with real timers too', async () => {
    server.enqueue({ kind: 'hang' });
    const { error } = await run({ timeouts: { firstByteTimeoutMs: 20 } });
    expect(error).toMatchObject({ name: 'ProviderTimeoutError', phase: 'first-byte' });
  });

  it('closes the HTTP request when the caller aborts mid-stream', async () => {
    server.enqueue(openAiStream({ textDeltas: ['Thinking'], interrupt: 'stall' }));
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
    const frames = [
      openAiChunk({ content: 'one ' }),
      openAiChunk({ content: 'two ' }),
      openAiChunk({ content: 'three' }),
    ];
    // One write, so all three deltas arrive in the same network chunk.
    server.enqueue({
      kind: 'stream',
      steps: [
        { frame: frames.map((step) => ('frame' in step ? step.frame : '')).join('') },
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

  it('closes the HTTP request when the consumer stops iterating early', async () => {
    server.enqueue(openAiStream({ textDeltas: ['One'], interrupt: 'stall' }));
    for await (const part of provider().stream(contractRequest, {
      signal: new AbortController().signal,
    })) {
      expect(part.type).toBe('text-delta');
      break;
    }
    expect(await server.requests[0]?.outcome).toBe('client-closed');
  });

  it('sends no request at all when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { error } = await run({}, controller.signal);
    expect(error).toBeInstanceOf(ProviderCancelledError);
    expect(server.requests).toHaveLength(0);
  });

  it('reports a dropped connection mid-stream as a retryable ProviderStreamError', async () => {
    server.enqueue(openAiStream({ textDeltas: ['Half'], interrupt: 'disconnect' }));
    const { parts, error } = await run();
    expect(joinText(parts)).toBe('Half');
    expect(error).toBeInstanceOf(ProviderStreamError);
    expect(error).toMatchObject({ retryable: true });
  });

  it('reports an unreachable server as a ProviderConnectionError', async () => {
    const baseUrl = server.baseUrl;
    await server.close();
    server = await startOpenAiTestServer();
    const { error } = await run({ baseUrl });
    expect(error).toBeInstanceOf(ProviderConnectionError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('reassembles events split across network chunks', async () => {
    const frame = openAiChunk({ content: 'whole' });
    const text = 'frame' in frame ? frame.frame : '';
    server.enqueue({
      kind: 'stream',
      steps: [
        { frame: text.slice(0, 9) },
        { delayMs: 20 },
        { frame: text.slice(9) },
        openAiChunk({}, 'stop'),
        openAiDone,
      ],
    });
    const { parts, error } = await run();
    expect(error).toBeUndefined();
    expect(joinText(parts)).toBe('whole');
  });
});
