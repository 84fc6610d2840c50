import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectStream, joinText } from '../testing/collect-stream.ts';
import { contractRequest } from '../testing/contract-scenario.ts';
import { openAiHttpError, openAiStream } from '../testing/openai-wire.ts';
import type { SseTestServer } from '../testing/sse-test-server-types.ts';
import { startOpenAiTestServer } from '../testing/start-provider-test-servers.ts';
import { createProviderFromConfig } from './create-provider-from-config.ts';

let server: SseTestServer;
beforeEach(async () => {
  server = await startOpenAiTestServer();
});
afterEach(async () => {
  await server.close();
});

describe('createProviderFromConfig, end to end', () => {
  it('points the OpenAI adapter at OPENAI_BASE_URL with OPENAI_API_KEY, retrying by default', async () => {
    server.enqueue(
      openAiHttpError(503, 'warming up', { 'retry-after': '0' }),
      openAiStream({ textDeltas: ['Hello'] }),
    );
    const result = createProviderFromConfig({
      FORJA_MODEL: 'openai:llama3.1:8b',
      OPENAI_API_KEY: 'sk-local-0123',
      OPENAI_BASE_URL: `${server.baseUrl}/`,
    });
    if (!result.ok) throw result.error;
    const { parts, error } = await collectStream(
      result.provider.stream(contractRequest, { signal: new AbortController().signal }),
    );
    expect(error).toBeUndefined();
    expect(joinText(parts)).toBe('Hello');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.headers['authorization']).toBe('Bearer sk-local-0123');
    expect(server.requests[1]?.body).toMatchObject({ model: 'llama3.1:8b' });
  });

  it('leaves retries to the caller when asked', async () => {
    server.enqueue(openAiHttpError(503, 'warming up', { 'retry-after': '0' }));
    const result = createProviderFromConfig(
      { FORJA_MODEL: 'openai:m', OPENAI_BASE_URL: server.baseUrl },
      { retries: false },
    );
    if (!result.ok) throw result.error;
    const { error } = await collectStream(
      result.provider.stream(contractRequest, { signal: new AbortController().signal }),
    );
    expect(error).toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(1);
  });
});
