import type { EventSourceMessage } from 'eventsource-parser';
import { ProviderStreamError } from '../errors/provider-stream-error.ts';
import type { ModelRequest, ModelStreamPart } from '../model-provider.ts';
import { finishStream } from '../shared/finish-stream.ts';
import { parseEventJson, validateEvent } from '../shared/read-json-event.ts';
import { toToolCallPart } from '../shared/to-tool-call-part.ts';
import {
  anthropicEventSchemas,
  anthropicEventTypeSchema,
  type AnthropicUsage,
} from './anthropic-event-schema.ts';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.ts';

type ToolUseBlock = {
  id: string;
  name: string;
  rawArguments: string;
  initialInput: unknown;
  sawDelta: boolean;
};

const provider = 'anthropic';
// Error types the API documents as transient (overload, internal error) or worth waiting out.
const transientErrorTypes = new Set([
  'overloaded_error',
  'api_error',
  'rate_limit_error',
  'timeout_error',
]);

/**
 * Turns the server-sent events of a Messages stream into stream parts. A tool call is emitted at its
 * `content_block_stop`, once its `input_json_delta` pieces are complete; input tokens come from
 * `message_start`, output tokens (cumulative) from `message_delta`.
 */
export async function* decodeAnthropicStream(
  events: AsyncIterable<EventSourceMessage>,
  request: ModelRequest,
): AsyncGenerator<ModelStreamPart> {
  const toolUseBlocks = new Map<number, ToolUseBlock>();
  const state: StreamState = { outputText: '', cache: {} };
  let sawMessageStop = false;

  for await (const event of events) {
    const value = parseEventJson(provider, event.data);
    const { type } = validateEvent(provider, value, anthropicEventTypeSchema);
    if (type === 'message_stop') {
      sawMessageStop = true;
      break;
    }
    switch (type) {
      case 'message_start': {
        recordUsage(
          state,
          validateEvent(provider, value, anthropicEventSchemas.message_start).message.usage,
        );
        break;
      }
      case 'content_block_start': {
        const { index, content_block: block } = validateEvent(
          provider,
          value,
          anthropicEventSchemas.content_block_start,
        );
        if (block.type === 'tool_use') {
          toolUseBlocks.set(index, {
            id: block.id ?? `toolu_${index}`,
            name: block.name ?? '',
            rawArguments: '',
            initialInput: block.input,
            sawDelta: false,
          });
        } else if (block.type === 'text' && block.text) {
          state.outputText += block.text;
          yield { type: 'text-delta', text: block.text };
        }
        break;
      }
      case 'content_block_delta': {
        const { index, delta } = validateEvent(
          provider,
          value,
          anthropicEventSchemas.content_block_delta,
        );
        if (delta.type === 'text_delta' && delta.text) {
          state.outputText += delta.text;
          yield { type: 'text-delta', text: delta.text };
        } else if (delta.type === 'input_json_delta') {
          const block = toolUseBlocks.get(index);
          if (block !== undefined) {
            block.rawArguments += delta.partial_json ?? '';
            block.sawDelta = true;
          }
        }
        break;
      }
      case 'content_block_stop': {
        const { index } = validateEvent(provider, value, anthropicEventSchemas.content_block_stop);
        const block = toolUseBlocks.get(index);
        if (block !== undefined) {
          toolUseBlocks.delete(index);
          const rawArguments = completeArguments(block);
          state.outputText += rawArguments;
          yield toToolCallPart({ id: block.id, name: block.name, rawArguments });
        }
        break;
      }
      case 'message_delta': {
        const { delta, usage } = validateEvent(
          provider,
          value,
          anthropicEventSchemas.message_delta,
        );
        state.stopReason = delta?.stop_reason ?? state.stopReason;
        recordUsage(state, usage);
        break;
      }
      case 'error':
        throw streamError(value);
      // `ping` and event types added after this adapter was written carry nothing we need.
    }
  }

  yield* endOfStream(state, { sawMessageStop, openBlocks: toolUseBlocks.values(), request });
}

/** What the decoder gathers across events: the text and arguments streamed, the usage, why it stopped. */
type StreamState = {
  outputText: string;
  inputTokens?: number;
  outputTokens?: number;
  cache: CacheTokens;
  stopReason?: string;
};

/** Usage as `message_start` and `message_delta` report it: each figure, when given, replaces the last. */
function recordUsage(state: StreamState, usage: AnthropicUsage | null | undefined): void {
  state.inputTokens = readInputTokens(usage) ?? state.inputTokens;
  state.outputTokens = usage?.output_tokens ?? state.outputTokens;
  state.cache = readCacheTokens(usage, state.cache);
}

/** An `error` event as the error it reports; retryable when the API documents its type as transient. */
function streamError(value: unknown): ProviderStreamError {
  const { error } = validateEvent(provider, value, anthropicEventSchemas.error);
  return new ProviderStreamError({
    provider,
    message: error.message ?? 'the provider reported an error',
    retryable: typeof error.type === 'string' && transientErrorTypes.has(error.type),
    ...(error.type ? { errorType: error.type } : {}),
  });
}

/** After the last event: a stream cut short is an error; open tool blocks are still calls; then the usage. */
async function* endOfStream(
  state: StreamState,
  end: { sawMessageStop: boolean; openBlocks: Iterable<ToolUseBlock>; request: ModelRequest },
): AsyncGenerator<ModelStreamPart> {
  if (!end.sawMessageStop && state.stopReason === undefined) {
    throw new ProviderStreamError({
      provider,
      message: 'the stream ended before the model finished',
      retryable: true,
    });
  }
  // A block left open by a truncated stream is still a call the model made.
  for (const block of end.openBlocks) {
    yield toToolCallPart({
      id: block.id,
      name: block.name,
      rawArguments: completeArguments(block),
    });
  }
  const reported = {
    ...(state.inputTokens === undefined ? {} : { inputTokens: state.inputTokens }),
    ...(state.outputTokens === undefined ? {} : { outputTokens: state.outputTokens }),
    ...state.cache,
  };
  yield* finishStream({
    request: end.request,
    reported,
    outputText: state.outputText,
    reason: mapAnthropicStopReason(state.stopReason),
  });
}

// A tool without parameters streams no input_json_delta at all; its input is the block's initial `{}`.
function completeArguments(block: ToolUseBlock): string {
  return block.sawDelta ? block.rawArguments : JSON.stringify(block.initialInput ?? {});
}

// Cached prompt tokens are still input the call consumed, so metering counts them.
function readInputTokens(usage: AnthropicUsage | null | undefined): number | undefined {
  if (usage?.input_tokens === undefined || usage.input_tokens === null) return undefined;
  return (
    usage.input_tokens +
    (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0)
  );
}

type CacheTokens = { cachedInputTokens?: number; cacheWriteInputTokens?: number };

// The prompt-cache reads and writes, when reported; a later event's figure replaces an earlier one.
function readCacheTokens(
  usage: AnthropicUsage | null | undefined,
  before: CacheTokens,
): CacheTokens {
  if (typeof usage?.input_tokens !== 'number') return before;
  return {
    ...before,
    ...(typeof usage.cache_read_input_tokens === 'number'
      ? { cachedInputTokens: usage.cache_read_input_tokens }
      : {}),
    ...(typeof usage.cache_creation_input_tokens === 'number'
      ? { cacheWriteInputTokens: usage.cache_creation_input_tokens }
      : {}),
  };
}
