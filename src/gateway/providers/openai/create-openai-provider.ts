import { ProviderCancelledError } from '../errors/provider-cancelled-error.ts';
import { fetchServerSentEvents } from '../http/fetch-server-sent-events.ts';
import {
  defaultProviderTimeouts,
  realTimeoutScheduler,
  type ProviderTimeouts,
  type TimeoutScheduler,
} from '../http/provider-timeouts.ts';
import type {
  ModelProvider,
  ModelRequest,
  ModelStreamOptions,
  ModelStreamPart,
} from '../model-provider.ts';
import { decodeOpenAiStream } from './decode-openai-stream.ts';
import { toOpenAiRequestBody, type OpenAiMaxTokensField } from './to-openai-request-body.ts';

/** The official endpoint, used when no base URL is given. */
export const openAiDefaultBaseUrl = 'https://api.openai.com/v1';

export type OpenAiProviderOptions = {
  model: string;
  /** Optional: local servers (Ollama, vLLM, LM Studio, llama.cpp) usually need none. */
  apiKey?: string;
  /** Up to and including `/v1`, as OpenAI-compatible servers document it. */
  baseUrl?: string;
  /** Defaults to `max_completion_tokens` on api.openai.com and `max_tokens` elsewhere. */
  maxTokensField?: OpenAiMaxTokensField;
  timeouts?: Partial<ProviderTimeouts>;
  /** Injected by tests to fire timeouts on cue; real timers otherwise. */
  scheduleTimeout?: TimeoutScheduler;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
};

/**
 * A ModelProvider speaking the OpenAI Chat Completions streaming protocol. The API key lives only in
 * this closure, never on the returned object, so logging the provider cannot leak it.
 */
export function createOpenAiProvider(options: OpenAiProviderOptions): ModelProvider {
  const baseUrl = (options.baseUrl ?? openAiDefaultBaseUrl).replace(/\/+$/, '');
  const maxTokensField =
    options.maxTokensField ??
    (baseUrl === openAiDefaultBaseUrl ? 'max_completion_tokens' : 'max_tokens');
  const timeouts = { ...defaultProviderTimeouts, ...options.timeouts };
  const headers: Record<string, string> =
    options.apiKey === undefined || options.apiKey === ''
      ? {}
      : { authorization: `Bearer ${options.apiKey}` };

  async function* stream(
    request: ModelRequest,
    { signal }: ModelStreamOptions,
  ): AsyncGenerator<ModelStreamPart> {
    const events = fetchServerSentEvents({
      provider: 'openai',
      url: `${baseUrl}/chat/completions`,
      headers,
      body: toOpenAiRequestBody({ model: options.model, request, maxTokensField }),
      signal,
      timeouts,
      scheduleTimeout: options.scheduleTimeout ?? realTimeoutScheduler,
      fetch: options.fetch ?? globalThis.fetch,
      secret: options.apiKey,
      now: options.now ?? Date.now,
    });
    for await (const part of decodeOpenAiStream(events, request)) {
      // Parts decoded from an already-received chunk must not outrun an abort.
      if (signal.aborted) throw new ProviderCancelledError('openai');
      yield part;
    }
  }

  return { name: 'openai', model: options.model, stream };
}
