import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ProviderCancelledError } from '../errors/provider-cancelled-error.ts';
import { ProviderConnectionError } from '../errors/provider-connection-error.ts';
import { ProviderStreamError } from '../errors/provider-stream-error.ts';
import {
  SilenceWatchdog,
  type ProviderTimeouts,
  type TimeoutScheduler,
} from './provider-timeouts.ts';
import { toProviderHttpError } from './to-provider-http-error.ts';

/** One streaming POST to a provider. */
export type ServerSentEventsRequest = {
  provider: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
  timeouts: ProviderTimeouts;
  scheduleTimeout: TimeoutScheduler;
  fetch: typeof globalThis.fetch;
  /** The API key, only so it can be redacted from error bodies. */
  secret: string | undefined;
  now: () => number;
};

/**
 * POSTs a JSON body and yields the server-sent events of the answer. Owns everything transport:
 * non-2xx answers become ProviderHttpError, silence becomes ProviderTimeoutError, the caller's abort
 * becomes ProviderCancelledError, and the HTTP request is aborted whenever the stream ends early
 * (error, abort, or a consumer that stopped iterating), so no connection is left streaming.
 */
export async function* fetchServerSentEvents(
  request: ServerSentEventsRequest,
): AsyncGenerator<EventSourceMessage> {
  const { provider, signal } = request;
  if (signal.aborted) throw new ProviderCancelledError(provider);
  const connection = new AbortController();
  const watchdog = new SilenceWatchdog({
    provider,
    timeouts: request.timeouts,
    onTimeout: () => connection.abort(),
    schedule: request.scheduleTimeout,
  });
  const abortConnection = (): void => connection.abort();
  signal.addEventListener('abort', abortConnection, { once: true });
  // Whatever made a pending fetch or read reject, the timeout or the caller's abort is the real cause.
  const interruption = (): Error | undefined =>
    watchdog.fired ?? (signal.aborted ? new ProviderCancelledError(provider) : undefined);
  let completed = false;

  try {
    watchdog.arm('first-byte');
    let response: Response;
    try {
      response = await request.fetch(request.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...request.headers,
        },
        body: JSON.stringify(request.body),
        signal: connection.signal,
      });
    } catch (error) {
      throw interruption() ?? new ProviderConnectionError(provider, error);
    }
    if (!response.ok) {
      const httpError = await toProviderHttpError({
        provider,
        response,
        secret: request.secret,
        now: request.now(),
      });
      throw interruption() ?? httpError;
    }
    if (response.body === null) {
      throw new ProviderStreamError({
        provider,
        message: 'the answer has no body',
        retryable: true,
      });
    }

    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const received: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => received.push(event) });
    while (true) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw (
          interruption() ??
          new ProviderStreamError({
            provider,
            message: 'connection lost',
            retryable: true,
            cause: error,
          })
        );
      }
      watchdog.disarm();
      if (chunk.done) break;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      yield* received.splice(0);
      watchdog.arm('idle');
    }
    parser.feed(decoder.decode());
    parser.reset({ consume: true });
    completed = true;
    yield* received.splice(0);
  } finally {
    watchdog.disarm();
    signal.removeEventListener('abort', abortConnection);
    if (!completed) connection.abort();
  }
}
