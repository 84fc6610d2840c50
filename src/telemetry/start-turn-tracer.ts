import type { ExportWarning } from './otlp-turn-tracer.ts';
import type { TracingSettings } from './tracing-settings.ts';
import { noTurnTracer, type TurnTracer } from './turn-tracer.ts';

export interface StartedTurnTracer {
  tracer: TurnTracer;
  /** Sends what is buffered and stops; nothing to do when tracing is off. */
  shutdown(): Promise<void>;
}

/**
 * The process's tracer: with no OTLP endpoint (`settings` null), `noTurnTracer`, and the OpenTelemetry SDK is
 * never even loaded; otherwise the SDK's, loaded here (ADR 0370).
 */
export async function startTurnTracer(
  settings: TracingSettings | null,
  version: string,
  warn: ExportWarning,
): Promise<StartedTurnTracer> {
  if (settings === null) return { tracer: noTurnTracer, shutdown: async () => {} };
  const { createOtlpTurnTracer } = await import('./otlp-turn-tracer.ts');
  const tracer = createOtlpTurnTracer(settings, version, warn);
  return { tracer, shutdown: () => tracer.shutdown() };
}
