import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { Database, EventLog } from '../store/index.ts';
import type {
  BudgetFigures,
  GatewayPreflight,
  GatewayStatus,
  GatewayTurnOutcome,
  GatewayTurnRequest,
  ModelGateway,
} from './model-gateway.ts';
import { budgetMessage } from './metering/budget-message.ts';
import { checkBudget } from './metering/check-budget.ts';
import { reserveCall, type CallIdentity } from './metering/reserve-call.ts';
import { settleCall } from './metering/settle-call.ts';
import { consumeStream, type StreamProgress } from './consume-stream.ts';
import {
  estimateRequestTokens,
  estimateTokens,
  ProviderCancelledError,
  reservableInputTokens,
  requestBytes,
  toValidMessageProtocol,
  isModelRouting,
  singleModelRouting,
  type ModelRouting,
  type ModelStreamPart,
  type ProviderOrReason,
} from './providers/index.ts';
import {
  BUILT_IN_PRICES,
  callCostUsd,
  priceFor,
  reservationCostUsd,
  type ModelPrice,
  type PriceTable,
} from './metering/prices/price-table.ts';
import { SESSION_EVENTS } from '../domain/conversation/index.ts';

export interface GatewayDependencies {
  database: Database;
  eventLog: EventLog;
  /**
   * The provider of every agent's calls, or the message explaining which variables to set; or a routing that
   * gives each agent kind its own (`FORJA_MODEL_<KIND>`).
   */
  provider: ProviderOrReason | ModelRouting;
  logger: Logger;
  now?: () => number;
  /** The process's identity (`forja_processes`): its reservations are settled as interrupted if it dies mid-call. */
  processId?: string;
  /** How often the output streamed so far is written to the reservation, for an interrupted call's settlement. */
  streamedOutputEveryMs?: number;
  /**
   * Where the server of `agent`'s model cuts a prompt without saying so (Ollama's `num_ctx`), or null: a
   * request whose input passes it is refused, recorded with no tokens, never sent.
   */
  silentCutAt?: (agent: string) => { tokens: number; from: string } | null;
  /** What each model costs (`FORJA_PRICES` over the built-in list by default): each call's cost and money budgets. */
  prices?: PriceTable;
}

/**
 * The model gateway: the only code that calls a provider. Each turn is reserved against the project's budget,
 * streamed, and settled in `token_usage` whatever happens (completed, failed, cancelled); a refused turn
 * never reaches the provider and appends `budget.exceeded` to the session.
 */
export function createModelGateway(dependencies: GatewayDependencies): ModelGateway {
  const { database, eventLog, logger } = dependencies;
  const routing = isModelRouting(dependencies.provider)
    ? dependencies.provider
    : singleModelRouting(dependencies.provider);
  const now = dependencies.now ?? (() => performance.now());
  const prices = dependencies.prices ?? BUILT_IN_PRICES;
  const context: CallContext = {
    database,
    eventLog,
    logger,
    now,
    streamedOutputEveryMs: dependencies.streamedOutputEveryMs ?? 1_000,
  };

  const status = (agent = ''): GatewayStatus => {
    const provider = routing.providerFor(agent);
    return 'notConfigured' in provider
      ? { configured: false, message: provider.notConfigured }
      : { configured: true, provider: provider.name, model: provider.model };
  };

  async function runTurn(
    request: GatewayTurnRequest,
    options: { signal?: AbortSignal; onTextDelta?: (text: string) => void } = {},
  ): Promise<GatewayTurnOutcome> {
    const provider = routing.providerFor(request.agent);
    if ('notConfigured' in provider)
      return { status: 'not_configured', message: provider.notConfigured };
    const call: CallIdentity = {
      projectId: request.projectId,
      sessionId: request.sessionId,
      agent: request.agent,
      provider: provider.name,
      model: provider.model,
      processId: dependencies.processId ?? null,
      ...(request.onBehalfOf === undefined ? {} : { onBehalfOf: request.onBehalfOf }),
    };
    const modelRequest = toModelRequest(request);
    // The request is serialised once for both figures (ADR 0080: not stringified twice per call).
    const bytes = requestBytes(modelRequest);
    const inputEstimate = request.inputTokens ?? estimateRequestTokens(modelRequest, bytes);
    // Reserved from an upper bound of the input (ADR 0131), so a provider counting more than the estimate stays inside it;
    // the output is capped by `maxOutputTokens`, which the reservation covers. In money: that bound at full price.
    const price = priceFor(prices, provider.name, provider.model);
    // The request already repaired above is measured, not built and repaired a second time.
    const reservedTokens = reservedTokensFor(request, bytes, modelRequest);
    const reservation = await reserveCall(
      database,
      call,
      reservedTokens,
      inputEstimate,
      reservedUsdFor(price, request, reservedTokens),
    );
    if (!reservation.ok)
      return refuseOnBudget(context, call, reservation.usageId, reservation.figures);
    // Measured both ways, the larger kept: the server's tokenizer is neither, and a cut is silent.
    const cut = dependencies.silentCutAt?.(request.agent) ?? null;
    const cutCount = Math.max(inputEstimate, estimateRequestTokens(modelRequest, bytes));
    if (cut !== null && cutCount > cut.tokens)
      return refuseOverCut(context, call, reservation.usageId, cutCount, cut);
    return streamCall(context, {
      call,
      usageId: reservation.usageId,
      stream: (signal) => provider.stream(modelRequest, { signal }),
      price,
      inputEstimate,
      ...options,
    });
  }

  async function preflight(request: GatewayTurnRequest): Promise<GatewayPreflight> {
    const provider = routing.providerFor(request.agent);
    if ('notConfigured' in provider)
      return { ok: false, status: 'not_configured', message: provider.notConfigured };
    const reservedTokens = reservedTokensFor(request);
    const price = priceFor(prices, provider.name, provider.model);
    const checked = await checkBudget(
      database,
      request.projectId,
      reservedTokens,
      reservedUsdFor(price, request, reservedTokens),
    );
    return checked.ok
      ? { ok: true }
      : {
          ok: false,
          status: 'budget_exceeded',
          message: budgetMessage(checked.figures, {
            provider: provider.name,
            model: provider.model,
          }),
          figures: checked.figures,
        };
  }

  return { status, models: () => routing.assignments(), runTurn, preflight };
}

/** What a call reserves: an upper bound of its input (never below the caller's count) plus its output cap. */
export function reservedTokensFor(
  request: GatewayTurnRequest,
  bytes?: number,
  modelRequest: ReturnType<typeof toModelRequest> = toModelRequest(request),
): number {
  return (
    Math.max(
      request.inputTokens ?? 0,
      reservableInputTokens(modelRequest, bytes ?? requestBytes(modelRequest)),
    ) + request.maxOutputTokens
  );
}

/** What a call reserves in money: its token reservation at full price; null when its model has no known price. */
function reservedUsdFor(
  price: ModelPrice | null,
  request: GatewayTurnRequest,
  reservedTokens: number,
): number | null {
  if (price === null) return null;
  return reservationCostUsd(
    price,
    reservedTokens - request.maxOutputTokens,
    request.maxOutputTokens,
  );
}

/** The provider-neutral request, its messages in the order the strictest provider accepts (ADR 0325). */
function toModelRequest(request: GatewayTurnRequest) {
  return toValidMessageProtocol({
    agent: request.agent,
    system: request.system,
    messages: request.messages,
    tools: request.tools,
    maxOutputTokens: request.maxOutputTokens,
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    cacheKey: laneCacheKey(request),
  });
}

/**
 * The prompt-cache key of a request's lane: the same for every call of one agent in one session of one
 * project, different between lanes, and revealing none of them (a hash; OpenAI allows 64 characters).
 */
export function laneCacheKey(
  request: Pick<GatewayTurnRequest, 'projectId' | 'sessionId' | 'agent'>,
) {
  const lane = JSON.stringify([request.projectId, request.sessionId, request.agent]);
  return `forja-${createHash('sha256').update(lane).digest('hex').slice(0, 40)}`;
}

const elapsed = (at: number | null, since: number) => (at === null ? null : at - since);

/** A request past the server's silent cut is not sent: it would lose its start without a word. */
async function refuseOverCut(
  { database, logger }: CallContext,
  call: CallIdentity,
  usageId: string,
  inputTokens: number,
  cut: { tokens: number; from: string },
): Promise<GatewayTurnOutcome> {
  const message = `Not sent: this request to ${call.provider}:${call.model} has about ${inputTokens} input tokens, past the ${cut.tokens} where its server cuts prompts without saying so (${cut.from}). Raise the server's window (Ollama: PARAMETER num_ctx or OLLAMA_CONTEXT_LENGTH) or lower FORJA_MODEL_CONTEXT_TOKENS to it.`;
  await settleCall(database, usageId, {
    outcome: 'error',
    usage: { inputTokens: 0, outputTokens: 0, estimated: true },
    costUsd: 0,
    latencyMs: 0,
    timeToFirstTokenMs: null,
    error: message,
  });
  logger.warn({ ...call, input_tokens: inputTokens, cut_at: cut.tokens }, message);
  return {
    status: 'failed',
    usageId,
    message,
    errorName: 'ContextWindowExceeded',
    partialText: '',
  };
}

/** A call the budget refused: recorded as `budget.exceeded` in its session, never sent. */
async function refuseOnBudget(
  { eventLog, logger }: CallContext,
  call: CallIdentity,
  usageId: string,
  figures: BudgetFigures,
): Promise<GatewayTurnOutcome> {
  const message = budgetMessage(figures, call);
  if (call.sessionId)
    await eventLog.append(call.sessionId, [
      SESSION_EVENTS.budgetExceeded.create('system', {
        v: 1,
        agent: call.agent,
        usage_id: usageId,
        ...figures,
      }),
    ]);
  logger.info({ ...call, ...figures }, 'model turn refused by the budget');
  return { status: 'budget_exceeded', usageId, message, figures };
}

/** What the steps of a call share: the database, the session log, the logger, the clock. */
type CallContext = {
  database: Database;
  eventLog: EventLog;
  logger: Logger;
  now: () => number;
  /** How often the output streamed so far is written to the reservation. */
  streamedOutputEveryMs: number;
};

/**
 * A reserved call, streamed and settled whatever happens: completed (the provider's usage, or an estimate),
 * failed or cancelled (what streamed so far, estimated), its cost at `price`, its latency and first token.
 */
async function streamCall(
  context: CallContext,
  call: {
    call: CallIdentity;
    usageId: string;
    stream: (signal: AbortSignal) => AsyncIterable<ModelStreamPart>;
    price: ModelPrice | null;
    inputEstimate: number;
    signal?: AbortSignal;
    onTextDelta?: (text: string) => void;
  },
): Promise<GatewayTurnOutcome> {
  const { database, logger, now } = context;
  const { usageId, price } = call;
  const streamed = streamedOutputRecorder(context, usageId, call.onTextDelta);
  const startedAt = now();
  const progress: StreamProgress = {
    text: '',
    toolCalls: [],
    usage: null,
    finishReason: 'other',
    firstTokenAt: null,
  };
  const signal = call.signal ?? new AbortController().signal;
  const settle = (outcome: 'completed' | 'cancelled' | 'error', error?: string) => {
    const usage = progress.usage ?? {
      inputTokens: call.inputEstimate,
      outputTokens: estimateTokens(progress.text),
      estimated: true,
    };
    return settleCall(database, usageId, {
      outcome,
      usage,
      costUsd: price === null ? null : callCostUsd(price, usage),
      latencyMs: now() - startedAt,
      timeToFirstTokenMs: elapsed(progress.firstTokenAt, startedAt),
      ...(error === undefined ? {} : { error }),
    }).then(() => usage);
  };
  try {
    await consumeStream(call.stream(signal), progress, now, streamed.onTextDelta);
    await streamed.settled();
    const usage = await settle('completed');
    logger.debug({ ...call.call, usage }, 'model turn completed');
    return {
      status: 'completed',
      usageId,
      text: progress.text,
      toolCalls: progress.toolCalls,
      usage,
      finishReason: progress.finishReason,
    };
  } catch (error) {
    await streamed.settled();
    const cancelled = error instanceof ProviderCancelledError || signal.aborted;
    const message = error instanceof Error ? error.message : String(error);
    await settle(cancelled ? 'cancelled' : 'error', message);
    logger.warn(
      { ...call.call, outcome: cancelled ? 'cancelled' : 'error', error: message },
      'model turn did not complete',
    );
    if (cancelled) return { status: 'cancelled', usageId, partialText: progress.text };
    return {
      status: 'failed',
      usageId,
      message,
      errorName: error instanceof Error ? error.name : 'Error',
      partialText: progress.text,
    };
  }
}

/** Writes the output streamed so far to the open reservation, at most once per interval (one write in flight). */
function streamedOutputRecorder(
  { database, logger, now, streamedOutputEveryMs }: CallContext,
  usageId: string,
  onTextDelta?: (text: string) => void,
) {
  let text = '';
  let lastWrite = now();
  let writing: Promise<unknown> = Promise.resolve();
  return {
    onTextDelta(delta: string) {
      text += delta;
      onTextDelta?.(delta);
      if (now() - lastWrite < streamedOutputEveryMs) return;
      lastWrite = now();
      const tokens = estimateTokens(text);
      writing = writing
        .then(() =>
          database.query(
            `update token_usage set streamed_output_tokens = $2 where id = $1 and outcome = 'reserved'`,
            [usageId, tokens],
          ),
        )
        .catch((error: unknown) =>
          logger.warn({ err: error }, 'recording the output streamed so far failed'),
        );
    },
    settled: () => writing,
  };
}
