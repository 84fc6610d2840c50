import {
  anthropicApiVersion,
  anthropicDefaultBaseUrl,
} from '../anthropic/create-anthropic-provider.ts';
import { openAiDefaultBaseUrl } from '../openai/create-openai-provider.ts';
import { ollamaWindow } from '../windows/ollama-window.ts';
import { isListedModel, readListedWindow } from '../windows/read-listed-window.ts';
import { readOllamaRunningContext, readOllamaShow } from '../windows/read-ollama-show.ts';
import type { ServerWindow } from '../windows/server-window.ts';
import { readDefaultEndpoint, type ModelEndpoint } from './read-model-endpoint.ts';

/**
 * What one look at a model endpoint found. `reason` says why it is not usable, or what looked odd; `window`
 * is what the server said of the model's context window (null when it says nothing: OpenAI, Anthropic).
 */
export type ProbeResult = {
  reachable: boolean;
  reason: string | null;
  window: ServerWindow | null;
};

/** A cheap check of a model endpoint: its model list (and Ollama's model details), which costs no tokens. */
export interface ModelProbe {
  /** Where it looks, without credentials (for the log and the UI). */
  readonly target: string;
  check(): Promise<ProbeResult>;
}

export type ModelProbeOptions = { fetch?: typeof globalThis.fetch; timeoutMs?: number };

const DEFAULT_TIMEOUT_MS = 5_000;
/** A model list past this is not read for windows (OpenRouter's is about 1 MB). */
const MAX_LIST_CHARACTERS = 8_000_000;

/** The probe of the endpoint `FORJA_MODEL` names, or null when there is none to reach (unset or scripted). */
export function createModelProbe(
  env: Readonly<Record<string, string | undefined>>,
  options: ModelProbeOptions = {},
): ModelProbe | null {
  const read = readDefaultEndpoint(env);
  return read.ok ? createEndpointProbe(read.endpoint, options) : null;
}

/**
 * The probe of one endpoint (`GET {base}/models` for OpenAI-compatible servers, `GET {base}/v1/models` for
 * Anthropic), or null for a scripted model. Any HTTP answer means the server is up, except 401/403: the key
 * is refused, so turns would fail too. An OpenAI-compatible server is also asked for the model's window: its
 * list's `max_model_len` / `context_length`, or, at a `/v1` base, Ollama's `POST /api/show` and `GET /api/ps`.
 */
export function createEndpointProbe(
  endpoint: ModelEndpoint,
  options: ModelProbeOptions = {},
): ModelProbe | null {
  if (endpoint.kind === 'scripted') return null;
  const { apiKey, baseUrl } = endpoint.credentials;
  const base = (
    baseUrl ?? (endpoint.kind === 'openai' ? openAiDefaultBaseUrl : anthropicDefaultBaseUrl)
  ).replace(/\/+$/, '');
  const url = endpoint.kind === 'openai' ? `${base}/models` : `${base}/v1/models`;
  const headers: Record<string, string> =
    endpoint.kind === 'openai'
      ? { accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) }
      : {
          accept: 'application/json',
          'anthropic-version': anthropicApiVersion,
          ...(apiKey ? { 'x-api-key': apiKey } : {}),
        };
  const fetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const target = withoutCredentials(url);
  const ask = (address: string, init: RequestInit = {}) =>
    askJson(fetch, address, { ...init, headers: { ...headers, ...init.headers } }, timeoutMs);
  return {
    target,
    async check() {
      const list = await ask(url);
      if ('failure' in list)
        return {
          reachable: false,
          reason: `${target} does not answer (${describeFailure(list.failure, timeoutMs)})`,
          window: null,
        };
      if (list.status === 401 || list.status === 403)
        return {
          reachable: false,
          reason: `${target} refused the key (HTTP ${list.status}): check ${endpoint.keyVariable}`,
          window: null,
        };
      const answered = list.status >= 200 && list.status < 300;
      if (endpoint.kind === 'anthropic')
        return {
          reachable: true,
          reason: answered ? null : `${target} answered HTTP ${list.status}`,
          window: null,
        };
      const listed = answered ? readListedWindow(list.body, endpoint.model) : null;
      if (listed !== null)
        return {
          reachable: true,
          reason: null,
          window: { ...listed, truncatesAt: null, note: null },
        };
      const ollama = /\/v1$/.test(base)
        ? await askOllama(ask, base.slice(0, -3), endpoint.model)
        : null;
      if (ollama !== null) return ollama;
      const present = answered ? isListedModel(list.body, endpoint.model) : null;
      return {
        reachable: true,
        reason: !answered
          ? `${target} answered HTTP ${list.status}`
          : present === false
            ? `${target} does not list the model ${endpoint.model}; the server may still answer to it`
            : null,
        window: null,
      };
    },
  };
}

type Asked = { status: number; body: unknown } | { failure: unknown };

/** Ollama's own answer for `model`, or null when the server is not Ollama (no `/api/show`). */
async function askOllama(
  ask: (address: string, init?: RequestInit) => Promise<Asked>,
  root: string,
  model: string,
): Promise<ProbeResult | null> {
  const shown = await ask(`${root}/api/show`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model }),
  });
  if ('failure' in shown) return null;
  if (shown.status === 404 && isOllamaError(shown.body))
    return {
      reachable: false,
      reason: `Ollama at ${root} has no model ${model} (pull it with: ollama pull ${model})`,
      window: null,
    };
  if (shown.status !== 200) return null;
  const info = readOllamaShow(shown.body);
  if (info.numCtx === null && info.contextLength === null && info.capabilities === null)
    return null;
  const running = await ask(`${root}/api/ps`);
  const runningContext =
    'failure' in running ? null : readOllamaRunningContext(running.body, model);
  const toolsMissing =
    info.capabilities !== null && !info.capabilities.includes('tools')
      ? `Ollama says ${model} does not support tools: the agents' tool calls will be refused`
      : null;
  return {
    reachable: true,
    reason: toolsMissing,
    window: ollamaWindow(model, info, runningContext),
  };
}

async function askJson(
  fetch: typeof globalThis.fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<Asked> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    return { failure: error };
  }
  try {
    const text = await response.text();
    return {
      status: response.status,
      body: text.length > MAX_LIST_CHARACTERS ? null : JSON.parse(text),
    };
  } catch {
    return { status: response.status, body: null };
  }
}

// Ollama answers an unknown model with `{"error": "model 'x' not found"}`.
function isOllamaError(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { error?: unknown }).error === 'string'
  );
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
