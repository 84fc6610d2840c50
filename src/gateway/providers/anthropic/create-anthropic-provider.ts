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
import { decodeAnthropicStream } from './decode-anthropic-stream.ts';
import { toAnthropicRequestBody } from './to-anthropic-request-body.ts';

/** The official endpoint, used when no base URL is given. */
export const anthropicDefaultBaseUrl = 'https://api.anthropic.com';

/** The Messages API version this adapter speaks. */
export const anthropicApiVersion = '2023-06-01';

export type AnthropicProviderOptions = {
  model: string;
  apiKey?: string;
  /** Without `/v1`: the adapter appends `/v1/messages`, as the official clients do. */
  baseUrl?: string;
  timeouts?: Partial<ProviderTimeouts>;
  /** Injected by tests to fire timeouts on cue; real timers otherwise. */
  scheduleTimeout?: TimeoutScheduler;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
};

/**
 * A ModelProvider speaking the Anthropic Messages streaming protocol. The API key lives only in this
 * closure, never on the returned object, so logging the provider cannot leak it.
 */
export function createAnthropicProvider(options: AnthropicProviderOptions): ModelProvider {
  const baseUrl = (options.baseUrl ?? anthropicDefaultBaseUrl).replace(/\/+$/, '');
  const timeouts = { ...defaultProviderTimeouts, ...options.timeouts };
  const headers: Record<string, string> = {
    'anthropic-version': anthropicApiVersion,
    ...(options.apiKey === undefined || options.apiKey === ''
      ? {}
      : { 'x-api-key': options.apiKey }),
  };

  async function* stream(
    request: ModelRequest,
    { signal }: ModelStreamOptions,
  ): AsyncGenerator<ModelStreamPart> {
    const events = fetchServerSentEvents({
      provider: 'anthropic',
      url: `${baseUrl}/v1/messages`,
      headers,
      body: toAnthropicRequestBody({ model: options.model, request }),
      signal,
      timeouts,
      scheduleTimeout: options.scheduleTimeout ?? realTimeoutScheduler,
      fetch: options.fetch ?? globalThis.fetch,
      secret: options.apiKey,
      now: options.now ?? Date.now,
    });
    for await (const part of decodeAnthropicStream(events, request)) {
      // Parts decoded from an already-received chunk must not outrun an abort.
      if (signal.aborted) throw new ProviderCancelledError('anthropic');
      yield part;
    }
  }

  return { name: 'anthropic', model: options.model, stream };
}
