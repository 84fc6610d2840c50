import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProviderStreamError } from '../errors/provider-stream-error.ts';
import { collectStream } from '../testing/collect-stream.ts';
import { contractRequest } from '../testing/contract-scenario.ts';
import { serverSentEventsFrom } from '../testing/server-sent-events-from.ts';
import { splitTextAt } from '../testing/split-text-at.ts';
import { decodeOpenAiStream } from './decode-openai-stream.ts';

const chunk = (delta: object, finishReason: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason: finishReason }],
});
const toolDelta = (index: number, fields: object) => chunk({ tool_calls: [{ index, ...fields }] });
const usageChunk = { choices: [], usage: { prompt_tokens: 11, completion_tokens: 7 } };
const decode = (items: Array<string | object>) =>
  collectStream(decodeOpenAiStream(serverSentEventsFrom(items), contractRequest));

describe('decodeOpenAiStream', () => {
  it('yields content deltas, skips empty ones, and closes with the final usage chunk', async () => {
    const { parts, error } = await decode([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Hel' }),
      chunk({ content: 'lo' }),
      chunk({}, 'stop'),
      usageChunk,
      '[DONE]',
    ]);
    expect(error).toBeUndefined();
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'usage', inputTokens: 11, outputTokens: 7, estimated: false },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('reassembles interleaved tool calls by index and emits them in index order', async () => {
    const { parts } = await decode([
      toolDelta(0, { id: 'call_a', type: 'function', function: { name: 'first', arguments: '' } }),
      toolDelta(1, {
        id: 'call_b',
        type: 'function',
        function: { name: 'second', arguments: '{"b"' },
      }),
      toolDelta(0, { function: { arguments: '{"a":' } }),
      toolDelta(1, { function: { arguments: ':2}' } }),
      toolDelta(0, { function: { arguments: '1}' } }),
      chunk({}, 'tool_calls'),
      '[DONE]',
    ]);
    expect(parts.filter((part) => part.type === 'tool-call')).toEqual([
      {
        type: 'tool-call',
        id: 'call_a',
        name: 'first',
        rawArguments: '{"a":1}',
        arguments: { a: 1 },
      },
      {
        type: 'tool-call',
        id: 'call_b',
        name: 'second',
        rawArguments: '{"b":2}',
        arguments: { b: 2 },
      },
    ]);
    expect(parts.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('gets the same arguments however the JSON is split across chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (toolArguments, cuts) => {
          const json = JSON.stringify(toolArguments);
          const pieces = splitTextAt(json, cuts);
          const { parts } = await decode([
            toolDelta(0, { id: 'call_x', function: { name: 'tool', arguments: '' } }),
            ...pieces.map((piece) => toolDelta(0, { function: { arguments: piece } })),
            chunk({}, 'tool_calls'),
            '[DONE]',
          ]);
          const call = parts.find((part) => part.type === 'tool-call');
          expect(call?.rawArguments).toBe(json);
          expect(call?.arguments).toEqual(JSON.parse(json));
        },
      ),
    );
  });

  it('emits a call with broken JSON arguments with a parse error instead of failing', async () => {
    const { parts, error } = await decode([
      toolDelta(0, {
        id: 'call_a',
        function: { name: 'emit_artifact', arguments: '{"type": "busi' },
      }),
      chunk({}, 'tool_calls'),
      '[DONE]',
    ]);
    expect(error).toBeUndefined();
    const call = parts.find((part) => part.type === 'tool-call');
    expect(call).toMatchObject({
      id: 'call_a',
      rawArguments: '{"type": "busi',
      arguments: undefined,
    });
    expect(call?.parseError).toMatch(/not valid JSON/);
  });

  it('accepts the quirks of compatible servers: choices null, no ids, parsed arguments, stop with tool calls', async () => {
    const { parts } = await decode([
      chunk({ tool_calls: [{ function: { name: 'lookup', arguments: { query: 'bread' } } }] }),
      chunk({}, 'stop'),
      { choices: null, usage: { prompt_tokens: 5, completion_tokens: 3 } },
      '[DONE]',
    ]);
    expect(parts).toEqual([
      {
        type: 'tool-call',
        id: 'call_0',
        name: 'lookup',
        rawArguments: '{"query":"bread"}',
        arguments: { query: 'bread' },
      },
      { type: 'usage', inputTokens: 5, outputTokens: 3, estimated: false },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('maps length and unknown finish reasons', async () => {
    const length = await decode([chunk({ content: 'cut' }, 'length'), '[DONE]']);
    const unknown = await decode([chunk({ content: 'odd' }, 'eos_token'), '[DONE]']);
    expect(length.parts.at(-1)).toEqual({ type: 'finish', reason: 'length' });
    expect(unknown.parts.at(-1)).toEqual({ type: 'finish', reason: 'other' });
  });

  it('estimates only what the server did not report, and says so', async () => {
    const { parts } = await decode([
      chunk({ content: 'abcdefgh' }, 'stop'),
      { choices: [], usage: { prompt_tokens: 9 } },
      '[DONE]',
    ]);
    expect(parts.find((part) => part.type === 'usage')).toEqual({
      type: 'usage',
      inputTokens: 9,
      outputTokens: 2,
      estimated: true,
    });
  });

  it('turns an error object in the middle of the stream into a ProviderStreamError after the text already sent', async () => {
    const { parts, error } = await decode([
      chunk({ content: 'Half' }),
      { error: { message: 'The server had an error', type: 'server_error', code: null } },
    ]);
    expect(parts).toEqual([{ type: 'text-delta', text: 'Half' }]);
    expect(error).toBeInstanceOf(ProviderStreamError);
    expect(error).toMatchObject({
      errorType: 'server_error',
      retryable: true,
      message: expect.stringContaining('The server had an error'),
    });
  });

  it('refuses a chunk that is not JSON', async () => {
    const { error } = await decode(['{"choices": [']);
    expect(error).toMatchObject({
      name: 'ProviderStreamError',
      retryable: false,
      message: expect.stringContaining('malformed'),
    });
  });

  it('fails when the stream ends before the model finished', async () => {
    const { parts, error } = await decode([chunk({ content: 'Cut short' })]);
    expect(parts).toEqual([{ type: 'text-delta', text: 'Cut short' }]);
    expect(error).toMatchObject({ name: 'ProviderStreamError', retryable: true });
  });

  it('finishes without [DONE] when the server ended after a finish reason', async () => {
    const { parts, error } = await decode([chunk({ content: 'ok' }, 'stop')]);
    expect(error).toBeUndefined();
    expect(parts.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('reads the cached share of the prompt from prompt_tokens_details, never above the prompt', async () => {
    const usageOf = async (usage: Record<string, unknown>) =>
      (
        await decode([
          { choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }] },
          { choices: [], usage },
          '[DONE]',
        ])
      ).parts.find((part) => part.type === 'usage');
    expect(
      await usageOf({
        prompt_tokens: 2000,
        completion_tokens: 3,
        prompt_tokens_details: { cached_tokens: 1536 },
      }),
    ).toEqual({
      type: 'usage',
      inputTokens: 2000,
      outputTokens: 3,
      estimated: false,
      cachedInputTokens: 1536,
    });
    expect(
      await usageOf({
        prompt_tokens: 10,
        completion_tokens: 3,
        prompt_tokens_details: { cached_tokens: 99 },
      }),
    ).toMatchObject({ inputTokens: 10, cachedInputTokens: 10 });
  });
});
