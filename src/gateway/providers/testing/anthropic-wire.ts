import { serverSentEventFrame } from './server-sent-event-frame.ts';
import type { StreamStep, TestServerResponse } from './sse-test-server-types.ts';
import type { WireTurn } from './wire-turn.ts';

/**
 * Builders for the Anthropic Messages streaming format as Anthropic documents it: named events
 * (`event: <type>`) `message_start`, `ping`, `content_block_start/delta/stop` (text_delta,
 * input_json_delta), `message_delta` (stop_reason, output usage), `message_stop`, and `error`.
 */
export function anthropicEvent(data: { type: string } & Record<string, unknown>): StreamStep {
  return serverSentEventFrame(data, data.type);
}

/**
 * `message_start`; `usage` omitted when the turn reports none. As Anthropic reports it, `input_tokens` are only
 * the input neither read from nor written to the prompt cache; those two come in their own fields.
 */
export function anthropicMessageStart(usage: WireTurn['usage']): StreamStep {
  const message = {
    id: 'msg_test',
    type: 'message',
    role: 'assistant',
    content: [],
    model: 'test-model',
    stop_reason: null,
    stop_sequence: null,
    ...(usage === undefined ? {} : { usage: anthropicInputUsage(usage) }),
  };
  return anthropicEvent({ type: 'message_start', message });
}

function anthropicInputUsage(usage: NonNullable<WireTurn['usage']>) {
  const read = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteInputTokens ?? 0;
  return {
    input_tokens: usage.inputTokens - read - written,
    output_tokens: 1,
    ...(usage.cachedInputTokens === undefined ? {} : { cache_read_input_tokens: read }),
    ...(usage.cacheWriteInputTokens === undefined ? {} : { cache_creation_input_tokens: written }),
  };
}

/** An `error` event in the middle of the stream, e.g. `overloaded_error`. */
export function anthropicErrorEvent(errorType: string, message: string): StreamStep {
  return anthropicEvent({ type: 'error', error: { type: errorType, message } });
}

/** A whole streamed turn in Anthropic's format. */
export function anthropicStream(turn: WireTurn): TestServerResponse {
  const steps: StreamStep[] = [anthropicMessageStart(turn.usage), anthropicEvent({ type: 'ping' })];
  let index = 0;
  const textDeltas = turn.textDeltas ?? [];
  if (textDeltas.length > 0) {
    steps.push(
      anthropicEvent({
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      }),
    );
    for (const text of textDeltas) {
      steps.push(
        anthropicEvent({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }),
      );
    }
    if (turn.interrupt === undefined)
      steps.push(anthropicEvent({ type: 'content_block_stop', index }));
    index += 1;
  }
  if (turn.interrupt !== undefined)
    return { kind: 'stream', steps: [...steps, anthropicInterruption(turn.interrupt)] };

  const toolCalls = turn.toolCalls ?? [];
  for (const call of toolCalls) {
    steps.push(
      anthropicEvent({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      }),
    );
    for (const piece of call.argumentChunks) {
      steps.push(
        anthropicEvent({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: piece },
        }),
      );
    }
    steps.push(anthropicEvent({ type: 'content_block_stop', index }));
    index += 1;
  }
  const stopReason = turn.finishReason ?? (toolCalls.length > 0 ? 'tool_use' : 'end_turn');
  const usage =
    turn.usage === undefined ? {} : { usage: { output_tokens: turn.usage.outputTokens } };
  steps.push(
    anthropicEvent({
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      ...usage,
    }),
  );
  steps.push(anthropicEvent({ type: 'message_stop' }));
  return { kind: 'stream', steps };
}

/** An HTTP error answer with Anthropic's error body, e.g. a 429 with `retry-after` or a 529 overload. */
export function anthropicHttpError(
  status: number,
  errorType: string,
  message: string,
  headers: Record<string, string> = {},
): TestServerResponse {
  return {
    kind: 'json',
    status,
    headers,
    body: { type: 'error', error: { type: errorType, message } },
  };
}

function anthropicInterruption(interrupt: NonNullable<WireTurn['interrupt']>): StreamStep {
  if (interrupt === 'stall') return { stall: true };
  if (interrupt === 'disconnect') return { disconnect: true };
  return anthropicErrorEvent(interrupt.errorType, interrupt.message);
}
