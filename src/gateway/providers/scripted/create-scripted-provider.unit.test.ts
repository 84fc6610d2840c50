import { describe, expect, it } from 'vitest';
import { isRetryableProviderError } from '../errors/is-retryable-provider-error.ts';
import { ProviderHttpError } from '../errors/provider-http-error.ts';
import { ScriptExhaustedError } from '../errors/script-exhausted-error.ts';
import { ScriptExpectationError } from '../errors/script-expectation-error.ts';
import type { ModelRequest } from '../model-provider.ts';
import { withRetries } from '../retry/with-retries.ts';
import { collectStream, joinText } from '../testing/collect-stream.ts';
import { createScriptedProvider } from './create-scripted-provider.ts';
import type { ScriptInput } from './script-schema.ts';

const script: ScriptInput = {
  turns: [
    { agent: 'criativo', text: 'Hello there.', usage: { input_tokens: 12, output_tokens: 7 } },
    {
      agent: 'po',
      text: 'Backlog ready.',
      tool_calls: [{ name: 'emit_artifact', arguments: { type: 'backlog' } }],
    },
    {
      agent: 'criativo',
      text: '',
      tool_calls: [
        { name: 'emit_artifact', arguments: { type: 'business_rule' } },
        { name: 'offer_handoff', arguments: {} },
      ],
    },
  ],
};

const requestFor = (agent: string): ModelRequest => ({
  agent,
  system: 'sys',
  messages: [{ role: 'user', content: 'hi' }],
  tools: [],
  maxOutputTokens: 100,
});
const call = (provider: ReturnType<typeof createScriptedProvider>, agent: string) =>
  collectStream(provider.stream(requestFor(agent), { signal: new AbortController().signal }));

describe('createScriptedProvider', () => {
  it('refuses, as the strictest provider does, a request whose messages break the protocol', async () => {
    const provider = createScriptedProvider({ script: { turns: [{ agent: 'po', text: 'ok' }] } });
    const broken: ModelRequest = {
      ...requestFor('po'),
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'c1', name: 'x', rawArguments: '{}' }],
        },
        { role: 'user', content: 'meanwhile' },
        { role: 'tool', toolCallId: 'c1', content: 'done' },
      ],
    };
    const { parts, error } = await collectStream(
      provider.stream(broken, { signal: new AbortController().signal }),
    );
    expect(parts).toEqual([]);
    expect(error).toMatchObject({
      name: 'ProviderHttpError',
      status: 400,
      body: expect.stringContaining('message 2 (user) comes before the results of c1'),
    });
    expect(isRetryableProviderError(error)).toBe(false);
  });

  it('gives each agent its own next turn, in file order', async () => {
    const provider = createScriptedProvider({ script });
    expect(joinText((await call(provider, 'criativo')).parts)).toBe('Hello there.');
    expect(joinText((await call(provider, 'po')).parts)).toBe('Backlog ready.');
    const second = await call(provider, 'criativo');
    expect(
      second.parts.filter((part) => part.type === 'tool-call').map((part) => [part.id, part.name]),
    ).toEqual([
      ['call_criativo_1_0', 'emit_artifact'],
      ['call_criativo_1_1', 'offer_handoff'],
    ]);
  });

  it('reports scripted usage as real and estimates it, flagged, when absent', async () => {
    const provider = createScriptedProvider({ script });
    const first = await call(provider, 'criativo');
    expect(first.parts.find((part) => part.type === 'usage')).toEqual({
      type: 'usage',
      inputTokens: 12,
      outputTokens: 7,
      estimated: false,
    });
    const po = await call(provider, 'po');
    // Output estimate: ceil(bytes / 4) of the text plus the JSON arguments: "Backlog ready." + {"type":"backlog"}.
    const outputBytes = Buffer.byteLength('Backlog ready.{"type":"backlog"}');
    expect(po.parts.find((part) => part.type === 'usage')).toMatchObject({
      outputTokens: Math.ceil(outputBytes / 4),
      estimated: true,
    });
  });

  it('fails a call with no turn left, naming the agent and how many turns it had', async () => {
    const provider = createScriptedProvider({ script });
    await call(provider, 'po');
    const { error } = await call(provider, 'po');
    expect(error).toBeInstanceOf(ScriptExhaustedError);
    expect(error).toMatchObject({
      agent: 'po',
      turnCount: 1,
      message: expect.stringContaining('"po"'),
    });
    const unknown = await call(provider, 'dev');
    expect(unknown.error).toMatchObject({ agent: 'dev', turnCount: 0 });
  });

  it('says which turns were never taken', async () => {
    const provider = createScriptedProvider({ script });
    expect(provider.remainingTurns()).toEqual({ criativo: 2, po: 1 });
    await call(provider, 'criativo');
    await call(provider, 'po');
    expect(provider.remainingTurns()).toEqual({ criativo: 1 });
    expect(() => provider.assertAllTurnsConsumed()).toThrow(/unconsumed turns: criativo: 1/);
    await call(provider, 'criativo');
    expect(provider.remainingTurns()).toEqual({});
    expect(() => provider.assertAllTurnsConsumed()).not.toThrow();
  });

  it('resumes from a saved position, as after a process restart', async () => {
    const before = createScriptedProvider({ script });
    await call(before, 'criativo');
    const after = createScriptedProvider({ script, startAt: before.position() });
    expect(after.position()).toEqual({ criativo: 1 });
    const { parts } = await call(after, 'criativo');
    expect(parts.find((part) => part.type === 'tool-call')).toMatchObject({
      id: 'call_criativo_1_0',
    });
    expect(after.remainingTurns()).toEqual({ po: 1 });
  });

  it('refuses a start position that is not a whole number', () => {
    expect(() => createScriptedProvider({ script, startAt: { criativo: -1 } })).toThrow(
      /startAt\.criativo/,
    );
  });

  it('consumes the turn of a call even when it is cancelled', async () => {
    const provider = createScriptedProvider({ script });
    const controller = new AbortController();
    const iterator = provider
      .stream(requestFor('criativo'), { signal: controller.signal })
      [Symbol.asyncIterator]();
    await iterator.next();
    controller.abort();
    await expect(iterator.next()).rejects.toMatchObject({ name: 'ProviderCancelledError' });
    expect(provider.position()).toEqual({ criativo: 1 });
  });

  it('takes no turn until the stream is read', () => {
    const provider = createScriptedProvider({ script });
    provider.stream(requestFor('criativo'), { signal: new AbortController().signal });
    expect(provider.position()).toEqual({});
  });
});

const bakeryRequest: ModelRequest = {
  agent: 'criativo',
  system: 'You are Criativo.\n## Business rules\n- Entrega antes das 6h',
  messages: [
    { role: 'user', content: '[#3] Quero vender pão de madrugada.' },
    {
      role: 'assistant',
      content: 'Para quem?',
      toolCalls: [{ id: 'c1', name: 'emit_artifact', rawArguments: '{"type":"business_rule"}' }],
    },
    { role: 'tool', toolCallId: 'c1', content: 'recorded' },
    { role: 'user', content: '[#6] Para os vizinhos.' },
  ],
  tools: [
    { name: 'emit_artifact', description: '', parameters: {} },
    { name: 'offer_handoff', description: '', parameters: {} },
  ],
  maxOutputTokens: 100,
};
const play = (
  provider: ReturnType<typeof createScriptedProvider>,
  request: ModelRequest = bakeryRequest,
  signal = new AbortController().signal,
) => collectStream(provider.stream(request, { signal }));
const expecting = (expect: NonNullable<ScriptInput['turns'][number]['expect']>) =>
  createScriptedProvider({
    script: {
      turns: [
        { agent: 'po', text: 'first' },
        { agent: 'criativo', text: 'Played.', expect },
      ],
    },
    source: 'demo.json',
  });

describe('the scripted model checks what it is sent (expect)', () => {
  it('plays the turn when the system prompt, the messages in order and the tools all match', async () => {
    const provider = expecting({
      system: ['Entrega antes das 6h', 'You are Criativo'],
      messages: [
        'user: [#3] Quero vender',
        'assistant: Para quem?',
        'emit_artifact({"type":"business_rule"})',
        'tool: recorded',
        '[#6] Para os vizinhos',
      ],
      tools: ['offer_handoff'],
    });
    const { parts, error } = await play(provider);
    expect(error).toBeUndefined();
    expect(joinText(parts)).toBe('Played.');
  });

  it('fails a call whose system prompt lacks a substring, naming the turn, the substring and the prompt received', async () => {
    const { parts, error } = await play(
      expecting({ system: ['Entrega antes das 6h', 'Aberto aos domingos'] }),
    );
    expect(parts).toEqual([]);
    expect(error).toBeInstanceOf(ScriptExpectationError);
    expect(error).toMatchObject({
      agent: 'criativo',
      scriptIndex: 1,
      agentTurn: 0,
      check: 'system',
    });
    expect((error as Error).message).toBe(
      'scripted model: the call does not match turns[1] (criativo\'s turn 1) of demo.json: expected the system prompt to contain "Aberto aos domingos"; ' +
        'received a system prompt of 58 characters: "You are Criativo. ## Business rules - Entrega antes das 6h"',
    );
  });

  it('looks for the messages in order: one found only before the previous one does not count', async () => {
    const { error } = await play(expecting({ messages: ['Para os vizinhos', 'Quero vender'] }));
    expect(error).toMatchObject({
      check: 'messages',
      expected: 'the messages to contain "Quero vender" after "Para os vizinhos"',
    });
    expect((error as ScriptExpectationError).received).toMatch(
      /^4 messages: "user: \[#3\] Quero vender pão de madrugada\." · "assistant: Para quem\?/,
    );
  });

  it('fails when a history message is missing, as when only the last message is sent', async () => {
    const lastOnly = { ...bakeryRequest, messages: bakeryRequest.messages.slice(-1) };
    const { error } = await play(
      expecting({ messages: ['Quero vender', 'Para os vizinhos'] }),
      lastOnly,
    );
    expect(error).toMatchObject({
      check: 'messages',
      received: '1 message: "user: [#6] Para os vizinhos."',
    });
  });

  it('fails when a tool is not offered, listing the tools that were', async () => {
    const { error } = await play(expecting({ tools: ['emit_artifact', 'send_email'] }));
    expect(error).toMatchObject({
      check: 'tools',
      expected: 'the tool "send_email" to be offered',
      received: 'the tools emit_artifact, offer_handoff',
    });
  });

  it('checks the output cap the call carries', async () => {
    expect((await play(expecting({ max_output_tokens: 100 }))).error).toBeUndefined();
    const { error } = await play(expecting({ max_output_tokens: 4096 }));
    expect(error).toMatchObject({
      check: 'max_output_tokens',
      expected: 'an output cap of 4096 tokens',
      received: 'an output cap of 100 tokens',
    });
  });

  it('abridges a long request in the error', async () => {
    const long = {
      ...bakeryRequest,
      system: `${'a'.repeat(5_000)} end`,
      messages: Array.from({ length: 30 }, (_, i) => ({
        role: 'user' as const,
        content: `message ${i} ${'x'.repeat(500)}`,
      })),
    };
    const { error } = await play(expecting({ system: ['missing'] }), long);
    expect((error as Error).message.length).toBeLessThan(600);
    const messages = await play(expecting({ messages: ['missing'] }), long);
    expect((messages.error as ScriptExpectationError).received).toMatch(
      /^30 messages: … 22 earlier, then "user: message 22 x+ … x+"/,
    );
    expect((messages.error as Error).message.length).toBeLessThan(1_500);
  });

  it('is not retryable: a request that does not match will not match again', async () => {
    const { error } = await play(expecting({ tools: ['send_email'] }));
    expect(isRetryableProviderError(error)).toBe(false);
  });
});

describe('the scripted model paces its answer (delay_ms, pace_ms)', () => {
  it('waits the delay before the first part and the pace between two parts, streaming the same parts', async () => {
    const turn = {
      agent: 'criativo',
      text: 'one two three',
      tool_calls: [{ name: 'emit_artifact' }],
    };
    const log: string[] = [];
    const sleep = async (ms: number) => void log.push(`wait ${ms}`);
    const paced = createScriptedProvider({
      script: { turns: [{ ...turn, delay_ms: 500, pace_ms: 40 }] },
      sleep,
    });
    const parts = [];
    for await (const part of paced.stream(bakeryRequest, {
      signal: new AbortController().signal,
    })) {
      parts.push(part);
      log.push(part.type === 'text-delta' ? part.text : part.type);
    }
    expect(log).toEqual([
      'wait 500',
      'one ',
      'wait 40',
      'two ',
      'wait 40',
      'three',
      'wait 40',
      'tool-call',
      'usage',
      'finish',
    ]);
    expect(parts).toEqual(
      (await play(createScriptedProvider({ script: { turns: [turn] } }))).parts,
    );
  });

  it('really waits with the real clock', async () => {
    const provider = createScriptedProvider({
      script: { turns: [{ agent: 'criativo', text: 'a b', delay_ms: 30, pace_ms: 30 }] },
    });
    const started = performance.now();
    expect(joinText((await play(provider)).parts)).toBe('a b');
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('stops waiting as soon as the call is cancelled, during the delay or between two deltas', async () => {
    for (const turn of [{ delay_ms: 600_000 }, { pace_ms: 600_000 }]) {
      const provider = createScriptedProvider({
        script: { turns: [{ agent: 'criativo', text: 'never finished', ...turn }] },
      });
      const controller = new AbortController();
      const iterator = provider
        .stream(bakeryRequest, { signal: controller.signal })
        [Symbol.asyncIterator]();
      if (turn.pace_ms)
        expect((await iterator.next()).value).toEqual({ type: 'text-delta', text: 'never ' });
      const next = iterator.next();
      controller.abort();
      await expect(next).rejects.toMatchObject({ name: 'ProviderCancelledError' });
    }
  });
});

describe('the scripted model fails as a provider would (fail)', () => {
  it('throws the HTTP error a real provider answers, after the delay', async () => {
    const provider = createScriptedProvider({
      script: {
        turns: [
          {
            agent: 'criativo',
            fail: { status: 503, message: 'overloaded', retry_after: 0.25 },
            delay_ms: 1,
          },
        ],
      },
    });
    const { parts, error } = await play(provider);
    expect(parts).toEqual([]);
    expect(error).toBeInstanceOf(ProviderHttpError);
    expect(error).toMatchObject({
      provider: 'scripted',
      status: 503,
      retryAfterMs: 250,
      body: 'overloaded',
      message: 'scripted answered HTTP 503: overloaded',
    });
  });

  it('is retried by the retry wrapper like a real 429, the retry taking the next turn', async () => {
    const provider = createScriptedProvider({
      script: {
        turns: [
          { agent: 'criativo', fail: { status: 429, message: 'slow down', retry_after: 0 } },
          { agent: 'criativo', text: 'Second try.' },
        ],
      },
    });
    const notices: number[] = [];
    const retried = withRetries(provider, { onRetry: (notice) => notices.push(notice.attempt) });
    const { parts, error } = await collectStream(
      retried.stream(bakeryRequest, { signal: new AbortController().signal }),
    );
    expect(error).toBeUndefined();
    expect(joinText(parts)).toBe('Second try.');
    expect(notices).toEqual([1]);
    provider.assertAllTurnsConsumed();
  });

  it('is not retried when the status says the request itself is wrong', async () => {
    const provider = createScriptedProvider({
      script: {
        turns: [
          { agent: 'criativo', fail: { status: 401, message: 'bad key' } },
          { agent: 'criativo', text: 'unused' },
        ],
      },
    });
    const { error } = await collectStream(
      withRetries(provider).stream(bakeryRequest, { signal: new AbortController().signal }),
    );
    expect(error).toMatchObject({ status: 401 });
    expect(provider.remainingTurns()).toEqual({ criativo: 1 });
  });
});
