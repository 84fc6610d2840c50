import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../anthropic/create-anthropic-provider.ts';
import type { ModelRequest } from '../model-provider.ts';
import { createOpenAiProvider } from '../openai/create-openai-provider.ts';
import { collectStream } from '../testing/collect-stream.ts';
import { anthropicStream } from '../testing/anthropic-wire.ts';
import { openAiStream } from '../testing/openai-wire.ts';
import type { SseTestServer } from '../testing/sse-test-server-types.ts';
import { startAnthropicModelServer } from '../testing/start-model-servers.ts';
import { startOpenAiTestServer } from '../testing/start-provider-test-servers.ts';

/** A tool with a required and an optional argument, as zod writes it for Forja's tools. */
const request: ModelRequest = {
  agent: 'dev:catalogo',
  system: 'You are the dev of catalogo.',
  messages: [{ role: 'user', content: 'Search the contracts.' }],
  tools: [
    {
      name: 'rag_search',
      description: 'Searches the project.',
      parameters: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 200 },
          k: { type: 'integer', minimum: 1, maximum: 8 },
        },
        required: ['query'],
      },
    },
  ],
  maxOutputTokens: 256,
};
const signal = () => new AbortController().signal;

const servers: SseTestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('strict tools with OpenAI', () => {
  it('declares a qualifying tool strict, and gives the tool back its arguments without the nulls it added', async () => {
    const server = await startOpenAiTestServer();
    servers.push(server);
    server.enqueue(
      openAiStream({
        toolCalls: [
          { id: 'call_1', name: 'rag_search', argumentChunks: ['{"query":"pães","k":null}'] },
        ],
      }),
    );
    const provider = createOpenAiProvider({
      model: 'gpt-4.1',
      baseUrl: server.baseUrl,
      strictTools: 'openai',
    });
    const { parts, error } = await collectStream(provider.stream(request, { signal: signal() }));
    expect(error).toBeUndefined();
    expect((server.requests[0]!.body as { tools: unknown[] }).tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'rag_search',
          description: 'Searches the project.',
          strict: true,
          parameters: {
            type: 'object',
            properties: {
              query: { type: 'string', description: '(minLength: 1; maxLength: 200)' },
              k: { type: ['integer', 'null'], minimum: 1, maximum: 8 },
            },
            required: ['query', 'k'],
            additionalProperties: false,
          },
        },
      },
    ]);
    expect(parts.find((part) => part.type === 'tool-call')).toMatchObject({
      arguments: { query: 'pães' },
      rawArguments: '{"query":"pães","k":null}',
    });
  });

  it('falls back once when the server refuses the strict schema, says so once, and stays without it', async () => {
    const server = await startOpenAiTestServer();
    servers.push(server);
    server.enqueue(
      {
        kind: 'json',
        status: 400,
        body: {
          error: {
            message:
              "Invalid schema for function 'rag_search': In context=('properties', 'k'), 'minimum' is not permitted.",
            type: 'invalid_request_error',
            param: 'tools[0].function.parameters',
            code: 'invalid_function_parameters',
          },
        },
      },
      openAiStream({ textDeltas: ['Sem strict.'] }),
      openAiStream({ textDeltas: ['De novo.'] }),
    );
    const notices: string[] = [];
    const provider = createOpenAiProvider({
      model: 'gpt-4.1',
      baseUrl: server.baseUrl,
      strictTools: 'openai',
      onStrictRefused: (notice) => notices.push(notice.message),
    });
    expect(
      (await collectStream(provider.stream(request, { signal: signal() }))).error,
    ).toBeUndefined();
    expect(
      (await collectStream(provider.stream(request, { signal: signal() }))).error,
    ).toBeUndefined();
    const strictFlags = server.requests.map(
      (received) =>
        (received.body as { tools: Array<{ function: { strict?: boolean } }> }).tools[0]!.function
          .strict,
    );
    expect(strictFlags).toEqual([true, undefined, undefined]);
    expect(notices).toEqual([expect.stringContaining("Invalid schema for function 'rag_search'")]);
  });

  it('leaves other 400s alone: no second request', async () => {
    const server = await startOpenAiTestServer();
    servers.push(server);
    server.enqueue({
      kind: 'json',
      status: 400,
      body: {
        error: {
          message: 'messages: too many',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    });
    const provider = createOpenAiProvider({
      model: 'gpt-4.1',
      baseUrl: server.baseUrl,
      strictTools: 'openai',
    });
    const { error } = await collectStream(provider.stream(request, { signal: signal() }));
    expect(error).toMatchObject({ status: 400 });
    expect(server.requests).toHaveLength(1);
  });
});

describe('strict tools with Anthropic', () => {
  it('keeps optional properties optional and sends strict to a model that has it; a server that refuses the field gets the call again without it', async () => {
    const server = await startAnthropicModelServer({
      models: [
        { id: 'claude-sonnet-4-5', contextWindow: 200_000, strictTools: true },
        { id: 'claude-3-5-haiku', contextWindow: 200_000 },
      ],
    });
    servers.push(server);
    server.respondWith(() => anthropicStream({ textDeltas: ['Ok.'] }));
    const notices: string[] = [];
    const provider = (model: string) =>
      createAnthropicProvider({
        model,
        apiKey: 'sk-ant-1',
        baseUrl: server.baseUrl,
        strictTools: 'anthropic',
        onStrictRefused: (notice) => notices.push(notice.message),
      });
    expect(
      (await collectStream(provider('claude-sonnet-4-5').stream(request, { signal: signal() })))
        .error,
    ).toBeUndefined();
    expect((server.requests[0]!.body as { tools: unknown[] }).tools).toEqual([
      {
        name: 'rag_search',
        description: 'Searches the project.',
        strict: true,
        input_schema: {
          type: 'object',
          properties: {
            query: { type: 'string', description: '(minLength: 1; maxLength: 200)' },
            k: { type: 'integer', description: '(minimum: 1; maximum: 8)' },
          },
          required: ['query'],
          additionalProperties: false,
        },
      },
    ]);
    expect(
      (await collectStream(provider('claude-3-5-haiku').stream(request, { signal: signal() })))
        .error,
    ).toBeUndefined();
    expect(
      server.requests
        .slice(1)
        .map(
          (received) =>
            'strict' in (received.body as { tools: Array<Record<string, unknown>> }).tools[0]!,
        ),
    ).toEqual([true, false]);
    expect(notices).toEqual([
      expect.stringContaining('tools.0.custom.strict: Extra inputs are not permitted'),
    ]);
  });
});
