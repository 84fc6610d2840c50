import type { EventSourceMessage } from 'eventsource-parser';
import { ProviderStreamError } from '../errors/provider-stream-error.ts';
import type { ModelRequest, ModelStreamPart } from '../model-provider.ts';
import { finishStream, type ReportedUsage } from '../shared/finish-stream.ts';
import { readJsonEvent } from '../shared/read-json-event.ts';
import { toToolCallPart } from '../shared/to-tool-call-part.ts';
import { mapOpenAiFinishReason } from './map-openai-finish-reason.ts';
import {
  openAiChunkSchema,
  type OpenAiChunk,
  type OpenAiToolCallDelta,
} from './openai-chunk-schema.ts';

type PendingToolCall = { id: string; name: string; rawArguments: string };

const provider = 'openai';
// Error types a compatible server may send mid-stream for a transient fault.
const transientErrorTypes = new Set([
  'server_error',
  'overloaded_error',
  'rate_limit_exceeded',
  'timeout',
]);

/**
 * Turns the server-sent events of a Chat Completions stream into stream parts. Tool-call arguments
 * arrive in pieces keyed by `index`; each call is emitted whole once the choice finishes. Usage comes
 * in a final chunk with no choices (after `finish_reason`), so `usage` and `finish` are emitted at the
 * end of the stream.
 */
export async function* decodeOpenAiStream(
  events: AsyncIterable<EventSourceMessage>,
  request: ModelRequest,
): AsyncGenerator<ModelStreamPart> {
  const toolCalls = new Map<number, PendingToolCall>();
  let toolCallsEmitted = false;
  let outputText = '';
  let finishReason: string | undefined;
  let reported: ReportedUsage | undefined;
  let sawDone = false;

  for await (const event of events) {
    if (event.data === '[DONE]') {
      sawDone = true;
      break;
    }
    const chunk = readJsonEvent(provider, event.data, openAiChunkSchema);
    if (chunk.error) throw toStreamError(chunk.error);
    if (chunk.usage) reported = readUsage(chunk.usage);

    const choice = chunk.choices?.[0];
    if (choice === undefined) continue;
    const content = choice.delta?.content;
    if (content) {
      outputText += content;
      yield { type: 'text-delta', text: content };
    }
    for (const [position, delta] of (choice.delta?.tool_calls ?? []).entries()) {
      accumulateToolCall(toolCalls, delta, position);
    }
    if (choice.finish_reason) {
      finishReason = choice.finish_reason;
      yield* emitToolCalls(toolCalls);
      toolCallsEmitted = true;
    }
  }

  if (!sawDone && finishReason === undefined) {
    throw new ProviderStreamError({
      provider,
      message: 'the stream ended before the model finished',
      retryable: true,
    });
  }
  if (!toolCallsEmitted) yield* emitToolCalls(toolCalls);
  const rawArguments = [...toolCalls.values()].map((call) => call.rawArguments).join('');
  yield* finishStream({
    request,
    reported,
    outputText: outputText + rawArguments,
    reason: mapOpenAiFinishReason(finishReason, toolCalls.size > 0),
  });
}

function accumulateToolCall(
  toolCalls: Map<number, PendingToolCall>,
  delta: OpenAiToolCallDelta,
  position: number,
): void {
  const index = delta.index ?? position;
  const call = toolCalls.get(index) ?? { id: '', name: '', rawArguments: '' };
  toolCalls.set(index, call);
  if (delta.id) call.id = delta.id;
  if (delta.function?.name) call.name = delta.function.name;
  const argumentsDelta = delta.function?.arguments;
  if (typeof argumentsDelta === 'string') call.rawArguments += argumentsDelta;
  else if (argumentsDelta) call.rawArguments = JSON.stringify(argumentsDelta);
}

function* emitToolCalls(toolCalls: Map<number, PendingToolCall>): Generator<ModelStreamPart> {
  const ordered = [...toolCalls.entries()].sort(([left], [right]) => left - right);
  for (const [index, call] of ordered) {
    // A few local servers omit ids; the loop still needs one to pair the result with the call.
    yield toToolCallPart({ ...call, id: call.id || `call_${index}` });
  }
}

function readUsage(usage: NonNullable<OpenAiChunk['usage']>): ReportedUsage {
  return {
    ...(typeof usage.prompt_tokens === 'number' ? { inputTokens: usage.prompt_tokens } : {}),
    ...(typeof usage.completion_tokens === 'number'
      ? { outputTokens: usage.completion_tokens }
      : {}),
    ...(typeof usage.prompt_tokens_details?.cached_tokens === 'number'
      ? { cachedInputTokens: usage.prompt_tokens_details.cached_tokens }
      : {}),
  };
}

function toStreamError(error: NonNullable<OpenAiChunk['error']>): ProviderStreamError {
  const errorType = error.type ?? (typeof error.code === 'string' ? error.code : undefined);
  return new ProviderStreamError({
    provider,
    message: error.message ?? 'the provider reported an error',
    retryable: errorType !== undefined && transientErrorTypes.has(errorType),
    ...(errorType === undefined ? {} : { errorType }),
  });
}
