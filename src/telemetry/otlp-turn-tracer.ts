import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanExporter, TracerProvider } from '@opentelemetry/sdk-trace';
import {
  ATTR_ERROR_TYPE,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
} from '@opentelemetry/semantic-conventions';
import type { GatewayTurnOutcome } from '../gateway/index.ts';
import { FORJA, GENAI, inputMessagesJson, outputMessagesJson } from './genai-attributes.ts';
import type { TracingSettings } from './tracing-settings.ts';
import type { TracedChat, TracedToolCall, TurnTrace, TurnTracer } from './turn-tracer.ts';

/** The longest attribute value kept (characters): a hostile model's megabyte answer is cut, not exported whole. */
export const MAX_ATTRIBUTE_CHARS = 16_384;
/** The longest tool name kept in a span's name. */
const MAX_NAME_CHARS = 128;

/** Told when exports start failing (once, until one succeeds again) and when they succeed again. */
export type ExportWarning = (message: string, error?: Error) => void;

export interface OtlpTurnTracer extends TurnTracer {
  /** Sends what is buffered and stops the exporter (Forja's close). */
  shutdown(): Promise<void>;
}

/**
 * The `TurnTracer` of the OpenTelemetry SDK: spans batched and POSTed as OTLP/HTTP JSON to
 * `settings.tracesUrl`. Its own provider, not the global one: Forja's traces are its turns, nothing else.
 */
export function createOtlpTurnTracer(
  settings: TracingSettings,
  version: string,
  warn: ExportWarning,
): OtlpTurnTracer {
  const exporter = warningOnFailure(new OTLPTraceExporter({ url: settings.tracesUrl }), warn);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: 'forja',
      [ATTR_SERVICE_VERSION]: version,
    }),
    spanLimits: { attributeValueLengthLimit: MAX_ATTRIBUTE_CHARS },
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer('forja', version);
  return {
    async turn(turn, work) {
      const attributes: Attributes = {
        [GENAI.operationName]: 'invoke_agent',
        [GENAI.agentName]: turn.agent,
        [GENAI.conversationId]: turn.sessionId,
        [FORJA.projectId]: turn.projectId,
        [FORJA.sessionId]: turn.sessionId,
      };
      const span = tracer.startSpan(`invoke_agent ${turn.agent}`, {
        kind: SpanKind.INTERNAL,
        attributes,
      });
      const parent = trace.setSpan(ROOT_CONTEXT, span);
      try {
        const result = await work(turnTrace(tracer, parent, span, settings.captureContent));
        if (result.status === 'failed')
          endWithError(span, 'reason' in result ? String(result.reason) : 'failed');
        else span.end();
        return result;
      } catch (error) {
        endWithError(span, error instanceof Error ? error.name : 'Error');
        throw error;
      }
    },
    // A collector that refuses the last batch is not a reason for Forja's stop to fail.
    shutdown: () =>
      provider
        .shutdown()
        .catch((error: unknown) =>
          warn('the last traces were not sent', error instanceof Error ? error : undefined),
        ),
  };
}

function turnTrace(tracer: Tracer, parent: Context, root: Span, content: boolean): TurnTrace {
  return {
    async chat(call, work) {
      root.setAttribute(FORJA.turnId, call.turnId);
      const span = tracer.startSpan(
        `chat ${call.model?.model ?? ''}`.trim(),
        { kind: SpanKind.CLIENT, attributes: chatAttributes(call, content) },
        parent,
      );
      try {
        const outcome = await work();
        endChat(span, outcome, content);
        return outcome;
      } catch (error) {
        endWithError(span, error instanceof Error ? error.name : 'Error');
        throw error;
      }
    },
    async tool(call, work) {
      root.setAttribute(FORJA.turnId, call.turnId);
      // The name is the model's: unknown tools included, so it is cut (attributes are cut by the span limits).
      const span = tracer.startSpan(
        `execute_tool ${call.name.slice(0, MAX_NAME_CHARS)}`,
        { kind: SpanKind.INTERNAL, attributes: toolAttributes(call, content) },
        parent,
      );
      try {
        const outcome = await work();
        if (content) span.setAttribute(GENAI.toolCallResult, outcome.result);
        if (outcome.ok) span.end();
        else endWithError(span, 'tool_error');
        return outcome;
      } catch (error) {
        endWithError(span, error instanceof Error ? error.name : 'Error');
        throw error;
      }
    },
  };
}

function chatAttributes(call: TracedChat, content: boolean): Attributes {
  return {
    [GENAI.operationName]: 'chat',
    [GENAI.agentName]: call.request.agent,
    [GENAI.requestMaxTokens]: call.request.maxOutputTokens,
    [FORJA.turnId]: call.turnId,
    ...(call.model
      ? { [GENAI.providerName]: call.model.provider, [GENAI.requestModel]: call.model.model }
      : {}),
    ...(content
      ? {
          [GENAI.systemInstructions]: JSON.stringify([
            { type: 'text', content: call.request.system },
          ]),
          [GENAI.inputMessages]: inputMessagesJson(call.request.messages),
        }
      : {}),
  };
}

function toolAttributes(call: TracedToolCall, content: boolean): Attributes {
  return {
    [GENAI.operationName]: 'execute_tool',
    [GENAI.toolName]: call.name,
    [GENAI.toolCallId]: call.id,
    [GENAI.toolType]: 'function',
    [FORJA.turnId]: call.turnId,
    ...(content ? { [GENAI.toolCallArguments]: JSON.stringify(call.arguments ?? {}) } : {}),
  };
}

function endChat(span: Span, outcome: GatewayTurnOutcome, content: boolean): void {
  if (outcome.status !== 'completed') {
    endWithError(span, outcome.status === 'failed' ? outcome.errorName : outcome.status);
    return;
  }
  const { usage } = outcome;
  span.setAttributes({
    [GENAI.responseFinishReasons]: [outcome.finishReason],
    [GENAI.inputTokens]: usage.inputTokens,
    [GENAI.outputTokens]: usage.outputTokens,
    [FORJA.usageEstimated]: usage.estimated,
    ...(usage.cachedInputTokens === undefined
      ? {}
      : { [GENAI.cacheReadInputTokens]: usage.cachedInputTokens }),
    ...(usage.cacheWriteInputTokens === undefined
      ? {}
      : { [GENAI.cacheCreationInputTokens]: usage.cacheWriteInputTokens }),
    ...(content ? { [GENAI.outputMessages]: outputMessagesJson(outcome) } : {}),
  });
  span.end();
}

function endWithError(span: Span, type: string): void {
  span.setAttribute(ATTR_ERROR_TYPE, type);
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * The exporter, saying so when the collector stops taking spans (once, not at every batch) and when it takes
 * them again: the SDK alone reports failures to its diagnostics, which nobody reads.
 */
function warningOnFailure(exporter: SpanExporter, warn: ExportWarning): SpanExporter {
  let failing = false;
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        // 0 is ExportResultCode.SUCCESS.
        if (result.code !== 0 && !failing)
          warn(
            'exporting traces failed; spans are dropped until the collector takes them',
            result.error,
          );
        else if (result.code === 0 && failing) warn('exporting traces works again');
        failing = result.code !== 0;
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
