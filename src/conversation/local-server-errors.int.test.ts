import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import {
  startAnthropicModelServer,
  startOllamaTestServer,
  startVllmTestServer,
  type SseTestServer,
} from '../gateway/providers/testing/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson, startTestForja } from '../testing/forja-harness.ts';
import { newSessionThroughApi } from '../testing/scripted-forja.ts';

/** A long message, so a request passes a small window (about 3,000 tokens). */
const LONG = 'Entregas de pão de madrugada, com horários e sabores. '.repeat(300);

type Case = {
  name: string;
  start: () => Promise<SseTestServer>;
  env: (server: SseTestServer) => Record<string, string>;
  text?: string;
  /** What the person reads in `turn.failed`: the status and the server's own words. */
  says: RegExp;
};

const openAiAt =
  (model: string, settings: Record<string, string> = {}) =>
  (server: SseTestServer) => ({
    FORJA_MODEL: `openai:${model}`,
    OPENAI_BASE_URL: server.baseUrl,
    ...settings,
  });
const anthropicAt = (model: string) => (server: SseTestServer) => ({
  FORJA_MODEL: `anthropic:${model}`,
  ANTHROPIC_BASE_URL: server.baseUrl,
  ANTHROPIC_API_KEY: 'sk-ant-test',
  FORJA_MODEL_CONTEXT_TOKENS: '200000',
});

/** The wire formats' own refusals, as each server sends them before any model runs. */
const CASES: Case[] = [
  {
    name: 'Ollama: a model it does not have',
    start: () => startOllamaTestServer({ models: [{ name: 'qwen2.5:7b', numCtx: 32_768 }] }),
    env: openAiAt('llama9:70b', { FORJA_MODEL_CONTEXT_TOKENS: '32768' }),
    says: /HTTP 404: model 'llama9:70b' not found/,
  },
  {
    name: 'Ollama: a model that takes no tools',
    start: () =>
      startOllamaTestServer({
        models: [{ name: 'gemma:2b', numCtx: 32_768, capabilities: ['completion'] }],
      }),
    env: openAiAt('gemma:2b'),
    says: /HTTP 400: registry\.ollama\.ai\/library\/gemma:2b does not support tools/,
  },
  {
    name: 'vLLM: a model it does not serve',
    start: () => startVllmTestServer({ models: [{ id: 'Qwen/Qwen2.5-7B', maxModelLen: 32_768 }] }),
    env: openAiAt('Qwen/Other', { FORJA_MODEL_CONTEXT_TOKENS: '32768' }),
    says: /HTTP 404: The model `Qwen\/Other` does not exist\./,
  },
  {
    name: 'vLLM: tool calls without --enable-auto-tool-choice',
    start: () =>
      startVllmTestServer({
        models: [{ id: 'Qwen/Qwen2.5-7B', maxModelLen: 32_768 }],
        autoToolChoice: false,
      }),
    env: openAiAt('Qwen/Qwen2.5-7B'),
    says: /HTTP 400: "auto" tool choice requires --enable-auto-tool-choice/,
  },
  {
    name: 'vLLM: a prompt past max_model_len (a setting claims more)',
    start: () => startVllmTestServer({ models: [{ id: 'Qwen/Qwen2.5-7B', maxModelLen: 6_000 }] }),
    env: openAiAt('Qwen/Qwen2.5-7B', { FORJA_MODEL_CONTEXT_TOKENS: '131072' }),
    text: LONG,
    says: /HTTP 400: This model's maximum context length is 6000 tokens\. However, you requested \d+ tokens/,
  },
  {
    name: 'Anthropic: a model it does not have',
    start: () =>
      startAnthropicModelServer({ models: [{ id: 'claude-sonnet-4-5', contextWindow: 200_000 }] }),
    env: anthropicAt('claude-nada-1'),
    says: /HTTP 404: model: claude-nada-1/,
  },
  {
    name: 'Anthropic: a prompt past the window',
    start: () =>
      startAnthropicModelServer({ models: [{ id: 'claude-sonnet-4-5', contextWindow: 3_000 }] }),
    env: anthropicAt('claude-sonnet-4-5'),
    text: LONG,
    says: /HTTP 400: prompt is too long: \d+ tokens > 3000 maximum/,
  },
];

const chatPaths = new Set(['/v1/chat/completions', '/v1/messages']);

describe.each(testDatabaseEngines())("the local servers' refusals on $name", (engine) => {
  let forja: Forja | undefined;
  let server: SseTestServer | undefined;
  afterEach(async () => {
    await forja?.close();
    await server?.close();
    forja = undefined;
    server = undefined;
  });

  it.each(CASES)(
    '$name: the turn fails once with the server’s words, and the lane takes the next message',
    async (entry) => {
      server = await entry.start();
      forja = await startTestForja(engine, { env: entry.env(server) });
      const { sessionId } = await newSessionThroughApi(forja);
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
      const send = async (text: string) => {
        const posted = await requestJson(forja!, 'POST', `/api/sessions/${sessionId}/messages`, {
          text,
        });
        expect(posted.status).toBe(201);
        await forja!.conversation.idle(sessionId);
      };
      await send(entry.text ?? 'Uma padaria que entrega de madrugada.');
      const failures = () =>
        forja!.eventLog
          .read(sessionId)
          .then((events) => events.filter((event) => event.type === 'turn.failed'));
      const [failed, ...more] = await failures();
      expect(more).toEqual([]);
      const { message } = (failed?.payload ?? {}) as { message?: string };
      expect(message).toMatch(entry.says);
      // A refusal before any model ran is not retried: one request reached the server.
      const sent = server.requests.filter((request) => chatPaths.has(request.path));
      expect(sent).toHaveLength(1);
      // The lane is not wedged: the next message gets its own turn (refused the same way).
      await send('Outra mensagem.');
      expect(await failures()).toHaveLength(2);
    },
    60_000,
  );
});
