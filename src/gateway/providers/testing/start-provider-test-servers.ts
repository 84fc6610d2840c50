import { startSseTestServer } from './start-sse-test-server.ts';
import type { SseTestServer } from './sse-test-server-types.ts';

/** A local OpenAI-compatible server: POST /v1/chat/completions; give the adapter `baseUrl` (ends in /v1). */
export function startOpenAiTestServer(): Promise<SseTestServer> {
  return startSseTestServer({ path: '/v1/chat/completions', baseUrlSuffix: '/v1' });
}

/** A local Anthropic-compatible server: POST /v1/messages; give the adapter `baseUrl` (no /v1). */
export function startAnthropicTestServer(): Promise<SseTestServer> {
  return startSseTestServer({ path: '/v1/messages', baseUrlSuffix: '' });
}
