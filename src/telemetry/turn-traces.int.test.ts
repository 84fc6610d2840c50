import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { LoopAgent } from '../agents/index.ts';
import { defineTool } from '../agents/runtime/agent-tool.ts';
import { createForja, type Forja } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import { createScriptedProvider, type ScriptInput } from '../gateway/providers/index.ts';
import type { Database } from '../store/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { newSessionThroughApi } from '../testing/scripted-forja.ts';

/** An OTLP/HTTP receiver: every POST body to /v1/traces, parsed (the exporter sends JSON). */
async function startReceiver(
  status: number,
): Promise<{ server: Server; url: string; bodies: unknown[] }> {
  const bodies: unknown[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces')
        bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, bodies };
}

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  arrayValue?: { values: OtlpValue[] };
}
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
}

const plainValue = (value: OtlpValue): unknown =>
  value.stringValue ??
  (value.intValue === undefined ? undefined : Number(value.intValue)) ??
  value.boolValue ??
  value.arrayValue?.values.map(plainValue);

/** The spans of every export request, attributes flattened to a record. */
function spansOf(bodies: unknown[]): ExportedSpan[] {
  const requests = bodies as {
    resourceSpans: {
      scopeSpans: {
        spans: (Omit<ExportedSpan, 'attributes'> & {
          attributes: { key: string; value: OtlpValue }[];
        })[];
      }[];
    }[];
  }[];
  return requests.flatMap((request) =>
    request.resourceSpans.flatMap((resource) =>
      resource.scopeSpans.flatMap((scope) =>
        scope.spans.map((span) => ({
          ...span,
          attributes: Object.fromEntries(
            span.attributes.map((attribute) => [attribute.key, plainValue(attribute.value)]),
          ),
        })),
      ),
    ),
  );
}

const noteAgent: LoopAgent = {
  slug: 'tester',
  maxIterations: 5,
  maxOutputTokens: 200,
  buildSystemPrompt: async () => 'You keep notes.',
  tools: [
    defineTool({
      name: 'note',
      description: 'Write a note',
      mode: 'direct',
      parameters: z.strictObject({ text: z.string().min(1) }),
      run: async () => ({ ok: true, result: 'noted' }),
    }),
  ],
};

const script: { turns: Extract<ScriptInput, { turns: unknown }>['turns'] } = {
  turns: [
    {
      agent: 'tester',
      text: 'noting',
      tool_calls: [{ name: 'note', arguments: { text: 'buy flour' } }],
      usage: { input_tokens: 120, output_tokens: 9, cached_input_tokens: 100 },
    },
    { agent: 'tester', text: 'all noted', usage: { input_tokens: 140, output_tokens: 3 } },
  ],
};

describe.each(testDatabaseEngines().slice(0, 1))('turn traces on $name', (engine) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** Runs one scripted turn (a tool call, then an answer) with `env`; returns what the receiver got once Forja closed. */
  async function tracedTurn(
    env: Record<string, string>,
    receiverStatus = 200,
    turns = script.turns,
  ) {
    const receiver = await startReceiver(receiverStatus);
    cleanups.push(() => new Promise((resolve) => receiver.server.close(() => resolve())));
    const database: Database = await engine.open();
    cleanups.push(() => database.close());
    const loaded = loadConfig({});
    if (!loaded.ok) throw new Error(loaded.error.message);
    const logs: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void logs.push(line) });
    const forja: Forja = await createForja(loaded.config, logger, {
      env: Object.fromEntries(
        Object.entries(env).map(([name, value]) => [name, value.replace('RECEIVER', receiver.url)]),
      ),
      database,
      provider: createScriptedProvider({ script: { turns } }),
      extraAgents: [noteAgent],
    });
    const { sessionId, projectId } = await newSessionThroughApi(forja);
    await forja.eventLog.append(sessionId, [
      {
        type: 'agent.activated',
        actor: 'system',
        payload: { v: 1, agent: 'tester', handoff_id: null },
      },
    ]);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'remember the flour',
    });
    await forja.conversation.idle(sessionId);
    const types = (await forja.eventLog.read(sessionId)).map((event) => event.type);
    // Closing flushes what the batch holds.
    await forja.close();
    return { bodies: receiver.bodies, sessionId, projectId, logs, types };
  }

  it('exports a turn as one trace: invoke_agent over its chat and execute_tool spans, with the GenAI attributes', async () => {
    const { bodies, sessionId, projectId } = await tracedTurn({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'RECEIVER',
    });
    const spans = spansOf(bodies);
    const byOperation = (name: string) =>
      spans.filter((span) => span.attributes['gen_ai.operation.name'] === name);
    const [agent] = byOperation('invoke_agent');
    expect(byOperation('invoke_agent')).toHaveLength(1);
    expect(agent!.name).toBe('invoke_agent tester');
    expect(agent!.attributes).toMatchObject({
      'gen_ai.agent.name': 'tester',
      'gen_ai.conversation.id': sessionId,
      'forja.session.id': sessionId,
      'forja.project.id': projectId,
    });
    const chats = byOperation('chat');
    const [tool] = byOperation('execute_tool');
    expect(chats).toHaveLength(2);
    expect(byOperation('execute_tool')).toHaveLength(1);
    for (const child of [...chats, tool!]) {
      expect(child.traceId).toBe(agent!.traceId);
      expect(child.parentSpanId).toBe(agent!.spanId);
    }
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': expect.any(String),
      'gen_ai.agent.name': 'tester',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 9,
      'gen_ai.usage.cache_read.input_tokens': 100,
      'gen_ai.response.finish_reasons': ['tool_calls'],
    });
    expect(chats[1]!.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 140,
      'gen_ai.usage.output_tokens': 3,
    });
    expect(chats[1]!.attributes).not.toHaveProperty('gen_ai.usage.cache_read.input_tokens');
    expect(tool!.name).toBe('execute_tool note');
    expect(tool!.attributes).toMatchObject({
      'gen_ai.tool.name': 'note',
      'gen_ai.tool.call.id': expect.any(String),
      'gen_ai.tool.type': 'function',
    });
    // Without the opt-in, no text of the conversation leaves: no prompt, answer, arguments or result.
    const exported = JSON.stringify(bodies);
    for (const text of ['remember the flour', 'You keep notes', 'all noted', 'buy flour', 'noted"'])
      expect(exported).not.toContain(text);
  });

  it('puts the prompt, the answer, the arguments and the result in the spans with FORJA_OTEL_CAPTURE_CONTENT=true', async () => {
    const { bodies } = await tracedTurn({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'RECEIVER/v1/traces',
      FORJA_OTEL_CAPTURE_CONTENT: 'true',
    });
    const spans = spansOf(bodies);
    const chat = spans.find((span) => span.attributes['gen_ai.operation.name'] === 'chat')!;
    const tool = spans.find((span) => span.attributes['gen_ai.operation.name'] === 'execute_tool')!;
    expect(JSON.parse(String(chat.attributes['gen_ai.input.messages']))).toContainEqual({
      role: 'user',
      parts: [{ type: 'text', content: expect.stringContaining('remember the flour') }],
    });
    expect(chat.attributes['gen_ai.system_instructions']).toContain('You keep notes.');
    expect(JSON.parse(String(chat.attributes['gen_ai.output.messages']))).toEqual([
      {
        role: 'assistant',
        finish_reason: 'tool_calls',
        parts: [
          { type: 'text', content: 'noting' },
          {
            type: 'tool_call',
            id: expect.any(String),
            name: 'note',
            arguments: '{"text":"buy flour"}',
          },
        ],
      },
    ]);
    expect(JSON.parse(String(tool.attributes['gen_ai.tool.call.arguments']))).toEqual({
      text: 'buy flour',
    });
    expect(tool.attributes['gen_ai.tool.call.result']).toBe('noted');
  });

  it('says once in the log that the collector refuses spans, and the turn completes', async () => {
    const { bodies, logs, types } = await tracedTurn(
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'RECEIVER' },
      400,
    );
    expect(bodies.length).toBeGreaterThan(0);
    expect(types.slice(-2)).toEqual(['agent.response', 'turn.ended']);
    const warnings = logs.filter((line) => line.includes('exporting traces failed'));
    expect(warnings).toHaveLength(1);
  });

  it('cuts what a hostile model writes: span names and every attribute value stay bounded', async () => {
    const { bodies } = await tracedTurn(
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'RECEIVER', FORJA_OTEL_CAPTURE_CONTENT: 'true' },
      200,
      [
        {
          ...script.turns[0]!,
          text: 'y'.repeat(100_000),
          tool_calls: [{ name: 'z'.repeat(5_000), arguments: { text: 'w'.repeat(50_000) } }],
        },
        script.turns[1]!,
      ],
    );
    const spans = spansOf(bodies);
    expect(spans.some((span) => span.attributes['gen_ai.tool.name'] !== undefined)).toBe(true);
    for (const span of spans) {
      expect(span.name.length).toBeLessThanOrEqual(200);
      for (const value of Object.values(span.attributes))
        if (typeof value === 'string') expect(value.length).toBeLessThanOrEqual(16_384);
    }
  });

  it('exports nothing without an OTLP endpoint', async () => {
    const { bodies } = await tracedTurn({ FORJA_OTEL_CAPTURE_CONTENT: 'true' });
    expect(bodies).toEqual([]);
  });
});
