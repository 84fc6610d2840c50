/** The standard OTLP variables (the OpenTelemetry SDK's own names) and Forja's content opt-in (ADR 0370). */
export const TRACES_ENDPOINT_VARIABLE = 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT';
export const ENDPOINT_VARIABLE = 'OTEL_EXPORTER_OTLP_ENDPOINT';
export const SDK_DISABLED_VARIABLE = 'OTEL_SDK_DISABLED';
export const CAPTURE_CONTENT_VARIABLE = 'FORJA_OTEL_CAPTURE_CONTENT';

export interface TracingSettings {
  /** Where spans are POSTed (OTLP/HTTP, JSON). */
  tracesUrl: string;
  /** Whether prompts, answers, tool arguments and results go into spans (off unless asked for). */
  captureContent: boolean;
}

export type TracingSettingsResult =
  | { ok: true; settings: TracingSettings | null }
  | { ok: false; message: string };

/**
 * Tracing is on when an OTLP endpoint is set: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as it is, else
 * `OTEL_EXPORTER_OTLP_ENDPOINT` with `v1/traces` appended, as the OTLP exporter specification says; off (null)
 * without either, or with `OTEL_SDK_DISABLED=true`. A value that is not an http(s) URL is refused, named but not
 * repeated (it may carry credentials).
 */
export function readTracingSettings(env: NodeJS.ProcessEnv): TracingSettingsResult {
  const capture = readBoolean(env, CAPTURE_CONTENT_VARIABLE);
  if (!capture.ok) return capture;
  const disabled = readBoolean(env, SDK_DISABLED_VARIABLE);
  if (!disabled.ok) return disabled;
  const signal = env[TRACES_ENDPOINT_VARIABLE]?.trim() ?? '';
  const base = env[ENDPOINT_VARIABLE]?.trim() ?? '';
  if (disabled.value || (signal === '' && base === '')) return { ok: true, settings: null };
  const [variable, value] =
    signal !== '' ? [TRACES_ENDPOINT_VARIABLE, signal] : [ENDPOINT_VARIABLE, base];
  const url = URL.parse(value);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return {
      ok: false,
      message: `${variable} must be an http:// or https:// URL (an OTLP/HTTP endpoint)`,
    };
  if (variable === ENDPOINT_VARIABLE)
    url.pathname = `${url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`}v1/traces`;
  return { ok: true, settings: { tracesUrl: url.href, captureContent: capture.value } };
}

function readBoolean(
  env: NodeJS.ProcessEnv,
  variable: string,
): { ok: true; value: boolean } | { ok: false; message: string } {
  const value = env[variable]?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'false') return { ok: true, value: false };
  if (value === 'true') return { ok: true, value: true };
  return { ok: false, message: `${variable} must be true or false` };
}
