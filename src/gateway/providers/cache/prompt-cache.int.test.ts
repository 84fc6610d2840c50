import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createEventLog,
  createProject,
  createSession,
  type Database,
  type EventLog,
} from '../../../store/index.ts';
import { testDatabaseEngines } from '../../../store/testing/test-databases.ts';
import { createModelGateway } from '../../create-model-gateway.ts';
import type { GatewayTurnRequest } from '../../model-gateway.ts';
import { createProviderFromEndpoint } from '../config/create-provider-from-config.ts';
import type { ModelProvider } from '../model-provider.ts';
import { anthropicStream } from '../testing/anthropic-wire.ts';
import { anthropicCacheBreakpoints } from '../testing/from-wire-request.ts';
import { openAiStream } from '../testing/openai-wire.ts';
import type { SseTestServer } from '../testing/sse-test-server-types.ts';
import {
  startAnthropicTestServer,
  startOpenAiTestServer,
} from '../testing/start-provider-test-servers.ts';

const silent = pino({ level: 'silent' });
const servers: SseTestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A provider as `forja` builds it from FORJA_MODEL, against a local server, with FORJA_PROMPT_CACHE=on. */
function providerAt(kind: 'openai' | 'anthropic', server: SseTestServer): ModelProvider {
  const built = createProviderFromEndpoint(
    {
      kind,
      model: kind === 'openai' ? 'gpt-4.1' : 'claude-sonnet-4-5',
      variable: 'FORJA_MODEL',
      keyVariable: kind === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY',
      baseUrlVariable: kind === 'openai' ? 'OPENAI_BASE_URL' : 'ANTHROPIC_BASE_URL',
      credentials: { baseUrl: server.baseUrl, apiKey: 'test-key' },
    },
    { retries: false, promptCache: 'on' },
  );
  if (!built.ok) throw built.error;
  return built.provider;
}

describe.each(testDatabaseEngines())('the prompt cache over the wire on $name', (engine) => {
  let database: Database;
  let eventLog: EventLog;
  beforeAll(async () => {
    database = await engine.open();
    eventLog = createEventLog(database);
  });
  afterAll(() => database.close());

  const turnFor = (
    scope: { projectId: string; sessionId: string },
    agent: string,
  ): GatewayTurnRequest => ({
    ...scope,
    agent,
    system: `You are ${agent}.`,
    messages: [
      { role: 'user', content: 'An idea' },
      { role: 'assistant', content: 'Tell me more.' },
      { role: 'user', content: 'Bread.' },
    ],
    tools: [{ name: 'emit_artifact', description: 'Records.', parameters: { type: 'object' } }],
    maxOutputTokens: 100,
  });
  async function newScope() {
    const project = await createProject(database, { name: 'p' });
    const session = await createSession(database, { projectId: project.id });
    return { projectId: project.id, sessionId: session.id };
  }
  const cacheColumns = (usageId: string) =>
    database.query(
      'select input_tokens, cached_input_tokens, cache_write_input_tokens from token_usage where id = $1',
      [usageId],
    );

  it('sends OpenAI one prompt_cache_key per lane, the same on each of its calls and another for each other lane, and stores the cached tokens it reports', async () => {
    const server = await startOpenAiTestServer();
    servers.push(server);
    const gateway = createModelGateway({
      database,
      eventLog,
      logger: silent,
      provider: providerAt('openai', server),
    });
    const scope = await newScope();
    const otherSession = await newScope();
    const usage = { inputTokens: 2000, outputTokens: 5, cachedInputTokens: 1536 };
    for (let index = 0; index < 4; index++)
      server.enqueue(openAiStream({ textDeltas: ['ok'], usage }));
    const first = await gateway.runTurn(turnFor(scope, 'criativo'));
    await gateway.runTurn(turnFor(scope, 'criativo'));
    await gateway.runTurn(turnFor(scope, 'po'));
    await gateway.runTurn(turnFor(otherSession, 'criativo'));
    const keys = server.requests.map(
      (request) => (request.body as { prompt_cache_key?: string }).prompt_cache_key,
    );
    expect(keys[0]).toMatch(/^forja-[0-9a-f]{40}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(new Set(keys).size).toBe(3);
    expect(first.status).toBe('completed');
    if (first.status !== 'completed') return;
    expect((await cacheColumns(first.usageId)).rows).toEqual([
      { input_tokens: 2000, cached_input_tokens: 1536, cache_write_input_tokens: 0 },
    ]);
  });

  it('marks Anthropic cache breakpoints on the last tool, the system block and the history, and stores the reads and writes it reports', async () => {
    const server = await startAnthropicTestServer();
    servers.push(server);
    const gateway = createModelGateway({
      database,
      eventLog,
      logger: silent,
      provider: providerAt('anthropic', server),
    });
    server.enqueue(
      anthropicStream({
        textDeltas: ['ok'],
        usage: {
          inputTokens: 3000,
          outputTokens: 5,
          cachedInputTokens: 2500,
          cacheWriteInputTokens: 400,
        },
      }),
    );
    const outcome = await gateway.runTurn(turnFor(await newScope(), 'criativo'));
    expect(anthropicCacheBreakpoints(server.requests[0]!.body)).toEqual([
      'tools[0]',
      'system[0]',
      'messages[0].content[0]',
      'messages[2].content[0]',
    ]);
    expect(outcome.status).toBe('completed');
    if (outcome.status !== 'completed') return;
    expect(outcome.usage).toMatchObject({ cachedInputTokens: 2500, cacheWriteInputTokens: 400 });
    expect((await cacheColumns(outcome.usageId)).rows).toEqual([
      { input_tokens: 3000, cached_input_tokens: 2500, cache_write_input_tokens: 400 },
    ]);
  });
});
