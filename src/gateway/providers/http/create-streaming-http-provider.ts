import type { EventSourceMessage } from 'eventsource-parser';
import { ProviderCancelledError } from '../errors/provider-cancelled-error.ts';
import type {
  ModelProvider,
  ModelRequest,
  ModelStreamOptions,
  ModelStreamPart,
} from '../model-provider.ts';
import { fetchServerSentEvents } from './fetch-server-sent-events.ts';
import {
  defaultProviderTimeouts,
  realTimeoutScheduler,
  type ProviderTimeouts,
  type TimeoutScheduler,
} from './provider-timeouts.ts';

/** What every HTTP provider's options share, beside its own. */
export type HttpProviderOptions = {
  model: string;
  apiKey?: string;
  timeouts?: Partial<ProviderTimeouts>;
  /** Injected by tests to fire timeouts on cue; real timers otherwise. */
  scheduleTimeout?: TimeoutScheduler;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
};

/** How one protocol is spoken: where to POST, which headers, the body of a request, the decoding of its events. */
export type StreamingProtocol = {
  name: string;
  url: string;
  headers: Record<string, string>;
  body(request: ModelRequest): unknown;
  decode(
    events: AsyncIterable<EventSourceMessage>,
    request: ModelRequest,
  ): AsyncIterable<ModelStreamPart>;
};

/**
 * A ModelProvider that POSTs each request and decodes the server-sent events of the answer. The API key
 * lives only in this closure (and the protocol's headers), never on the returned object, so logging the
 * provider cannot leak it.
 */
export function createStreamingHttpProvider(
  options: HttpProviderOptions,
  protocol: StreamingProtocol,
): ModelProvider {
  const timeouts = { ...defaultProviderTimeouts, ...options.timeouts };

  async function* stream(
    request: ModelRequest,
    { signal }: ModelStreamOptions,
  ): AsyncGenerator<ModelStreamPart> {
    const events = fetchServerSentEvents({
      provider: protocol.name,
      url: protocol.url,
      headers: protocol.headers,
      body: protocol.body(request),
      signal,
      timeouts,
      scheduleTimeout: options.scheduleTimeout ?? realTimeoutScheduler,
      fetch: options.fetch ?? globalThis.fetch,
      secret: options.apiKey,
      now: options.now ?? Date.now,
    });
    for await (const part of protocol.decode(events, request)) {
      // Parts decoded from an already-received chunk must not outrun an abort.
      if (signal.aborted) throw new ProviderCancelledError(protocol.name);
      yield part;
    }
  }

  return { name: protocol.name, model: options.model, stream };
}
