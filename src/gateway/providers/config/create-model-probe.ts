import {
  anthropicApiVersion,
  anthropicDefaultBaseUrl,
} from '../anthropic/create-anthropic-provider.ts';
import { openAiDefaultBaseUrl } from '../openai/create-openai-provider.ts';
import { parseModelSetting } from './parse-model-setting.ts';
import { readCredentials } from './read-credentials.ts';

/** What one look at the model endpoint found. `reason` says why it is not usable, or what looked odd. */
export type ProbeResult = { reachable: boolean; reason: string | null };

/** A cheap check of the configured model endpoint: its model list, which costs no tokens. */
export interface ModelProbe {
  /** Where it looks, without credentials (for the log and the UI). */
  readonly target: string;
  check(): Promise<ProbeResult>;
}

export type ModelProbeOptions = { fetch?: typeof globalThis.fetch; timeoutMs?: number };

const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * The probe for the HTTP provider `FORJA_MODEL` names (`GET {base}/models` for OpenAI-compatible servers,
 * `GET {base}/v1/models` for Anthropic), or null when there is no endpoint to reach (unset or scripted).
 * Any HTTP answer means the server is up, except 401/403: the key is refused, so turns would fail too.
 */
export function createModelProbe(
  env: Readonly<Record<string, string | undefined>>,
  options: ModelProbeOptions = {},
): ModelProbe | null {
  const setting = parseModelSetting(env['FORJA_MODEL']);
  if (!setting.ok || setting.kind === 'scripted') return null;
  const read = readCredentials({ env, provider: setting.kind, model: setting.model });
  if (!read.ok) return null;
  const { apiKey, baseUrl } = read.credentials;
  const keyVariable = setting.kind === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
  const url =
    setting.kind === 'openai'
      ? `${(baseUrl ?? openAiDefaultBaseUrl).replace(/\/+$/, '')}/models`
      : `${(baseUrl ?? anthropicDefaultBaseUrl).replace(/\/+$/, '')}/v1/models`;
  const headers: Record<string, string> =
    setting.kind === 'openai'
      ? { accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) }
      : {
          accept: 'application/json',
          'anthropic-version': anthropicApiVersion,
          ...(apiKey ? { 'x-api-key': apiKey } : {}),
        };
  const fetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const target = withoutCredentials(url);

  return {
    target,
    async check() {
      let response: Response;
      try {
        response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        return {
          reachable: false,
          reason: `${target} does not answer (${describeFailure(error, timeoutMs)})`,
        };
      }
      await response.body?.cancel().catch(() => undefined);
      if (response.status === 401 || response.status === 403) {
        return {
          reachable: false,
          reason: `${target} refused the key (HTTP ${response.status}): check ${keyVariable}`,
        };
      }
      return {
        reachable: true,
        reason: response.ok ? null : `${target} answered HTTP ${response.status}`,
      };
    },
  };
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs / 1000} s`;
  const cause =
    error instanceof Error
      ? (error.cause as { code?: unknown; message?: unknown } | undefined)
      : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  parsed.search = '';
  return parsed.toString();
}
