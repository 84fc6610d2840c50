import { serverSentEventFrame } from './server-sent-event-frame.ts';
import type { StreamStep, TestServerResponse } from './sse-test-server-types.ts';
import type { WireTurn } from './wire-turn.ts';

/**
 * Builders for the OpenAI Chat Completions streaming format as OpenAI documents it: `data:` chunks of
 * `chat.completion.chunk`, tool-call arguments split across chunks by `index`, a final usage chunk with
 * empty `choices` (stream_options.include_usage), then `data: [DONE]`.
 */
const chunkBase = {
  id: 'chatcmpl-test',
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model: 'test-model',
};

/** A chunk carrying one choice delta and its finish reason (null while streaming). */
export function openAiChunk(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
): StreamStep {
  return serverSentEventFrame({
    ...chunkBase,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
}

/** The final usage-only chunk. */
export function openAiUsageChunk(usage: NonNullable<WireTurn['usage']>): StreamStep {
  const { inputTokens, outputTokens, cachedInputTokens } = usage;
  return serverSentEventFrame({
    ...chunkBase,
    choices: [],
    usage: {
      prompt_tokens: inputTokens,
      completion_tokens: outputTokens,
      total_tokens: inputTokens + outputTokens,
      ...(cachedInputTokens === undefined
        ? {}
        : { prompt_tokens_details: { cached_tokens: cachedInputTokens } }),
    },
  });
}

/** An error object sent in place of a chunk, mid-stream. */
export function openAiErrorChunk(errorType: string, message: string): StreamStep {
  return serverSentEventFrame({ error: { message, type: errorType, param: null, code: null } });
}

export const openAiDone: StreamStep = serverSentEventFrame('[DONE]');

/** A whole streamed turn in OpenAI's format. */
export function openAiStream(turn: WireTurn): TestServerResponse {
  const steps: StreamStep[] = [openAiChunk({ role: 'assistant', content: '' })];
  for (const text of turn.textDeltas ?? []) steps.push(openAiChunk({ content: text }));
  if (turn.interrupt !== undefined)
    return { kind: 'stream', steps: [...steps, openAiInterruption(turn.interrupt)] };

  const toolCalls = turn.toolCalls ?? [];
  for (const [index, call] of toolCalls.entries()) {
    steps.push(
      openAiChunk({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
        ],
      }),
    );
    for (const piece of call.argumentChunks) {
      steps.push(openAiChunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  steps.push(openAiChunk({}, turn.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop')));
  if (turn.usage !== undefined) steps.push(openAiUsageChunk(turn.usage));
  steps.push(openAiDone);
  return { kind: 'stream', steps };
}

/** An HTTP error answer with OpenAI's error body, e.g. a 429 with `retry-after`. */
export function openAiHttpError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): TestServerResponse {
  const type =
    status === 429
      ? 'rate_limit_exceeded'
      : status >= 500
        ? 'server_error'
        : 'invalid_request_error';
  return {
    kind: 'json',
    status,
    headers,
    body: { error: { message, type, param: null, code: null } },
  };
}

function openAiInterruption(interrupt: NonNullable<WireTurn['interrupt']>): StreamStep {
  if (interrupt === 'stall') return { stall: true };
  if (interrupt === 'disconnect') return { disconnect: true };
  return openAiErrorChunk(interrupt.errorType, interrupt.message);
}
