import { ProviderHttpError } from '../errors/provider-http-error.ts';
import type { ModelProvider, ModelRequest } from '../model-provider.ts';
import { anthropicHttpError, anthropicStream } from './anthropic-wire.ts';
import { fromAnthropicRequestBody, fromOpenAiRequestBody } from './from-wire-request.ts';
import { openAiHttpError, openAiStream } from './openai-wire.ts';
import type {
  RecordedRequest,
  TestServerHandler,
  TestServerResponse,
} from './sse-test-server-types.ts';
import type { WireTurn } from './wire-turn.ts';

export type ScriptedWireOptions = {
  /** The model behind the server: usually a scripted provider, whose `expect` checks what arrived. */
  provider: ModelProvider;
  wire: 'openai' | 'anthropic';
  /** Which agent asked: the wire does not say, so the test tells from what the request carries. */
  agentOf: (request: ModelRequest, recorded: RecordedRequest) => string;
};

/**
 * A test server's handler that plays a model over the real wire: the request body is read back into a
 * provider-neutral request (what the server received, not what Forja meant to send), the provider answers
 * it, and the answer is streamed in the wire's own events. A script's expectation that does not match comes
 * back as a 400, which is not retried, so the turn fails and names it.
 */
export function scriptedWireHandler(options: ScriptedWireOptions): TestServerHandler {
  return async (recorded) => {
    const decoded =
      options.wire === 'openai'
        ? fromOpenAiRequestBody(recorded.body)
        : fromAnthropicRequestBody(recorded.body);
    const request = { ...decoded, agent: options.agentOf(decoded, recorded) };
    const turn: WireTurn = { textDeltas: [], toolCalls: [] };
    try {
      for await (const part of options.provider.stream(request, {
        signal: new AbortController().signal,
      })) {
        if (part.type === 'text-delta') turn.textDeltas!.push(part.text);
        else if (part.type === 'tool-call')
          turn.toolCalls!.push({
            id: part.id,
            name: part.name,
            argumentChunks: [part.rawArguments],
          });
        else if (part.type === 'usage')
          turn.usage = {
            inputTokens: part.inputTokens,
            outputTokens: part.outputTokens,
            ...(part.cachedInputTokens === undefined
              ? {}
              : { cachedInputTokens: part.cachedInputTokens }),
            ...(part.cacheWriteInputTokens === undefined
              ? {}
              : { cacheWriteInputTokens: part.cacheWriteInputTokens }),
          };
      }
    } catch (error) {
      return failure(options.wire, error);
    }
    return options.wire === 'openai' ? openAiStream(turn) : anthropicStream(turn);
  };
}

function failure(wire: 'openai' | 'anthropic', error: unknown): TestServerResponse {
  const status = error instanceof ProviderHttpError ? error.status : 400;
  const message = error instanceof Error ? error.message : String(error);
  return wire === 'openai'
    ? openAiHttpError(status, message)
    : anthropicHttpError(status, 'invalid_request_error', message);
}
