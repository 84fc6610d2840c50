import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProviderStreamError } from '../errors/provider-stream-error.ts';
import { collectStream } from '../testing/collect-stream.ts';
import { contractRequest } from '../testing/contract-scenario.ts';
import { serverSentEventsFrom } from '../testing/server-sent-events-from.ts';
import { splitTextAt } from '../testing/split-text-at.ts';
import { decodeAnthropicStream } from './decode-anthropic-stream.ts';

type Event = [string, { type: string } & Record<string, unknown>];
const event = (data: { type: string } & Record<string, unknown>): Event => [data.type, data];
const messageStart = (usage: object = { input_tokens: 25, output_tokens: 1 }) =>
  event({ type: 'message_start', message: { id: 'msg_1', role: 'assistant', content: [], usage } });
const textStart = (index: number) =>
  event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
const textDelta = (index: number, text: string) =>
  event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
const toolStart = (index: number, id: string, name: string) =>
  event({
    type: 'content_block_start',
    index,
    content_block: { type: 'tool_use', id, name, input: {} },
  });
const jsonDelta = (index: number, partial_json: string) =>
  event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
const blockStop = (index: number) => event({ type: 'content_block_stop', index });
const messageDelta = (stop_reason: string, output_tokens?: number) =>
  event({
    type: 'message_delta',
    delta: { stop_reason, stop_sequence: null },
    ...(output_tokens === undefined ? {} : { usage: { output_tokens } }),
  });
const messageStop = event({ type: 'message_stop' });
const decode = (events: Event[]) =>
  collectStream(decodeAnthropicStream(serverSentEventsFrom(events), contractRequest));

describe('decodeAnthropicStream', () => {
  it('streams text deltas, ignores ping, and reads input usage from message_start and output from message_delta', async () => {
    const { parts, error } = await decode([
      messageStart(),
      event({ type: 'ping' }),
      textStart(0),
      textDelta(0, 'Ol'),
      textDelta(0, 'á'),
      blockStop(0),
      messageDelta('end_turn', 9),
      messageStop,
    ]);
    expect(error).toBeUndefined();
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Ol' },
      { type: 'text-delta', text: 'á' },
      { type: 'usage', inputTokens: 25, outputTokens: 9, estimated: false },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('emits a tool call at its content_block_stop with the input_json_delta pieces joined', async () => {
    const { parts } = await decode([
      messageStart(),
      toolStart(0, 'toolu_a', 'emit_artifact'),
      jsonDelta(0, ''),
      jsonDelta(0, '{"type": "busi'),
      jsonDelta(0, 'ness_rule"}'),
      blockStop(0),
      messageDelta('tool_use', 30),
      messageStop,
    ]);
    expect(parts).toEqual([
      {
        type: 'tool-call',
        id: 'toolu_a',
        name: 'emit_artifact',
        rawArguments: '{"type": "business_rule"}',
        arguments: { type: 'business_rule' },
      },
      { type: 'usage', inputTokens: 25, outputTokens: 30, estimated: false },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('gets the same arguments however partial_json is split', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (input, cuts) => {
          const json = JSON.stringify(input);
          const { parts } = await decode([
            messageStart(),
            toolStart(0, 'toolu_x', 'tool'),
            ...splitTextAt(json, cuts).map((piece) => jsonDelta(0, piece)),
            blockStop(0),
            messageDelta('tool_use', 1),
            messageStop,
          ]);
          const call = parts.find((part) => part.type === 'tool-call');
          expect(call?.rawArguments).toBe(json);
          expect(call?.arguments).toEqual(JSON.parse(json));
        },
      ),
    );
  });

  it('gives a tool without parameters the block’s initial input', async () => {
    const { parts } = await decode([
      messageStart(),
      toolStart(0, 'toolu_b', 'listar_contratos_de_modulos'),
      blockStop(0),
      messageDelta('tool_use'),
      messageStop,
    ]);
    expect(parts[0]).toEqual({
      type: 'tool-call',
      id: 'toolu_b',
      name: 'listar_contratos_de_modulos',
      rawArguments: '{}',
      arguments: {},
    });
  });

  it('emits a call with broken JSON with a parse error instead of failing', async () => {
    const { parts, error } = await decode([
      messageStart(),
      toolStart(0, 'toolu_c', 'emit_artifact'),
      jsonDelta(0, '{"type":'),
      blockStop(0),
      messageDelta('tool_use'),
      messageStop,
    ]);
    expect(error).toBeUndefined();
    expect(parts[0]).toMatchObject({
      type: 'tool-call',
      arguments: undefined,
      parseError: expect.stringMatching(/not valid JSON/),
    });
  });

  it('counts cached prompt tokens as input, and says how many were read from and written to the cache', async () => {
    const { parts } = await decode([
      messageStart({
        input_tokens: 10,
        cache_creation_input_tokens: 100,
        cache_read_input_tokens: 1000,
        output_tokens: 1,
      }),
      textStart(0),
      textDelta(0, 'x'),
      blockStop(0),
      messageDelta('end_turn', 4),
      messageStop,
    ]);
    expect(parts.find((part) => part.type === 'usage')).toEqual({
      type: 'usage',
      inputTokens: 1110,
      outputTokens: 4,
      estimated: false,
      cachedInputTokens: 1000,
      cacheWriteInputTokens: 100,
    });
  });

  it('maps stop reasons', async () => {
    const finishOf = async (stopReason: string) =>
      (await decode([messageStart(), messageDelta(stopReason, 1), messageStop])).parts.at(-1);
    expect(await finishOf('max_tokens')).toEqual({ type: 'finish', reason: 'length' });
    expect(await finishOf('stop_sequence')).toEqual({ type: 'finish', reason: 'stop' });
    expect(await finishOf('refusal')).toEqual({ type: 'finish', reason: 'content_filter' });
    expect(await finishOf('pause_turn')).toEqual({ type: 'finish', reason: 'other' });
  });

  it('ignores thinking deltas and event types it does not know', async () => {
    const { parts, error } = await decode([
      messageStart(),
      event({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'thinking', thinking: '' },
      }),
      event({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: 'hmm' },
      }),
      blockStop(0),
      event({ type: 'some_future_event', detail: 1 }),
      textStart(1),
      textDelta(1, 'answer'),
      blockStop(1),
      messageDelta('end_turn', 2),
      messageStop,
    ]);
    expect(error).toBeUndefined();
    expect(parts[0]).toEqual({ type: 'text-delta', text: 'answer' });
  });

  it('turns an error event mid-stream into a retryable ProviderStreamError for an overload', async () => {
    const { parts, error } = await decode([
      messageStart(),
      textStart(0),
      textDelta(0, 'Half'),
      event({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    ]);
    expect(parts).toEqual([{ type: 'text-delta', text: 'Half' }]);
    expect(error).toBeInstanceOf(ProviderStreamError);
    expect(error).toMatchObject({
      errorType: 'overloaded_error',
      retryable: true,
      message: expect.stringContaining('Overloaded'),
    });
  });

  it('does not retry an error event for a bad request', async () => {
    const { error } = await decode([
      messageStart(),
      event({ type: 'error', error: { type: 'invalid_request_error', message: 'bad' } }),
    ]);
    expect(error).toMatchObject({ errorType: 'invalid_request_error', retryable: false });
  });

  it('fails when the stream ends before the model finished', async () => {
    const { error } = await decode([messageStart(), textStart(0), textDelta(0, 'cut')]);
    expect(error).toMatchObject({ name: 'ProviderStreamError', retryable: true });
  });

  it('refuses an event whose shape is wrong, naming where', async () => {
    const { error } = await decode([
      event({ type: 'content_block_delta', index: 'zero', delta: { type: 'text_delta' } }),
    ]);
    expect(error).toMatchObject({
      name: 'ProviderStreamError',
      message: expect.stringContaining('index'),
    });
  });
});
