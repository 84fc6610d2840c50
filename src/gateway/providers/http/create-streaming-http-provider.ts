import type { EventSourceMessage } from 'eventsource-parser';
import { ProviderCancelledError } from '../errors/provider-cancelled-error.ts';
import type {
  ModelProvider,
  ModelRequest,
  ModelStreamOptions,
  ModelStreamPart,
} from '../model-provider.ts';
import { fetchServerSentEvents } from './fetch-server-sent-events.ts';
import { ProviderHttpError } from '../errors/provider-http-error.ts';
import { planStrictTools, type StrictToolPlan } from '../strict/plan-strict-tools.ts';
import { restoreOptionalNulls } from '../strict/restore-optional-nulls.ts';
import type { StrictDialect } from '../strict/strict-tool-schema.ts';
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
  /** Declare tools strict in this dialect where their schemas qualify (null or absent: never). */
  strictTools?: StrictDialect | null;
  /** Ask the provider to cache the request's stable prefix (`FORJA_PROMPT_CACHE`; off when absent). */
  promptCache?: boolean;
  /** Told once when the server refuses strict tools; the provider then sends them without. */
  onStrictRefused?: (notice: { provider: string; model: string; message: string }) => void;
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
  body(request: ModelRequest, strict: StrictToolPlan | null): unknown;
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
  let strictDialect = options.strictTools ?? null;

  async function* stream(
    request: ModelRequest,
    streamOptions: ModelStreamOptions,
  ): AsyncGenerator<ModelStreamPart> {
    const plan =
      strictDialect === null || request.tools.length === 0
        ? null
        : planStrictTools(request.tools, strictDialect);
    let sent = false;
    try {
      for await (const part of send(request, plan, streamOptions)) {
        sent = true;
        yield part;
      }
    } catch (error) {
      // A server that refuses the strict schemas gets the same request without them, now and from now on.
      if (sent || plan === null || plan.schemas.size === 0 || !refusesStrictTools(error))
        throw error;
      strictDialect = null;
      options.onStrictRefused?.({
        provider: protocol.name,
        model: options.model,
        message: error instanceof Error ? error.message : String(error),
      });
      yield* send(request, null, streamOptions);
    }
  }

  async function* send(
    request: ModelRequest,
    plan: StrictToolPlan | null,
    { signal }: ModelStreamOptions,
  ): AsyncGenerator<ModelStreamPart> {
    const events = fetchServerSentEvents({
      provider: protocol.name,
      url: protocol.url,
      headers: protocol.headers,
      body: protocol.body(request, plan),
      signal,
      timeouts,
      scheduleTimeout: options.scheduleTimeout ?? realTimeoutScheduler,
      fetch: options.fetch ?? globalThis.fetch,
      secret: options.apiKey,
      now: options.now ?? Date.now,
    });
    const schemas = new Map(request.tools.map((tool) => [tool.name, tool.parameters]));
    for await (const part of protocol.decode(events, request)) {
      // Parts decoded from an already-received chunk must not outrun an abort.
      if (signal.aborted) throw new ProviderCancelledError(protocol.name);
      // OpenAI's strict schemas made optional properties nullable: their nulls go back out.
      yield plan?.dialect === 'openai' &&
      part.type === 'tool-call' &&
      part.arguments !== undefined &&
      plan.schemas.has(part.name)
        ? { ...part, arguments: restoreOptionalNulls(part.arguments, schemas.get(part.name) ?? {}) }
        : part;
    }
  }

  return { name: protocol.name, model: options.model, stream };
}

/**
 * A 400 that names the strict schemas: OpenAI's `invalid_function_parameters` ("Invalid schema for function
 * …"), Anthropic's "tools.0.custom.strict: Extra inputs are not permitted", a compatible server's refusal.
 */
export function refusesStrictTools(error: unknown): boolean {
  return (
    error instanceof ProviderHttpError &&
    error.status === 400 &&
    /\bstrict\b|invalid schema|invalid_function_parameters|json schema/i.test(
      `${error.message} ${error.body}`,
    )
  );
}
