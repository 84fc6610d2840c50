import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAiStream } from './openai-wire.ts';
import type { SseTestServer } from './sse-test-server-types.ts';
import { startOpenAiTestServer } from './start-provider-test-servers.ts';

let server: SseTestServer;
beforeEach(async () => {
  server = await startOpenAiTestServer();
});
afterEach(async () => {
  await server.close();
});

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-probe': 'yes' },
    body: JSON.stringify(body),
  });

describe('the wire test server', () => {
  it('listens on 127.0.0.1 and records each request with its parsed body and headers', async () => {
    server.enqueue(openAiStream({ textDeltas: ['a'] }));
    const response = await post('/v1/chat/completions', { model: 'm' });
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toContain('data: [DONE]');
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      body: { model: 'm' },
    });
    expect(server.requests[0]?.headers['x-probe']).toBe('yes');
    expect(await server.requests[0]?.outcome).toBe('completed');
  });

  it('plays queued responses in order, then the handler, then a 500 that names the problem', async () => {
    server.enqueue({ kind: 'json', status: 201, body: { n: 1 } });
    expect((await post('/v1/chat/completions', {})).status).toBe(201);
    server.respondWith((_request, index) => ({ kind: 'json', status: 200, body: { index } }));
    expect(await (await post('/v1/chat/completions', {})).json()).toEqual({ index: 1 });
    server.respondWith(() => ({ kind: 'json', status: 500, body: {} }));
    const fresh = await startOpenAiTestServer();
    const unscripted = await fetch(`${fresh.baseUrl}/chat/completions`, {
      method: 'POST',
      body: '{}',
    });
    expect(unscripted.status).toBe(500);
    expect(await unscripted.text()).toContain('no response scripted for request #0');
    await fresh.close();
  });

  it('answers 404 off its route', async () => {
    const response = await post('/v1/completions', {});
    expect(response.status).toBe(404);
  });
});
