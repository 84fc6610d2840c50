import { createAnthropicProvider } from '../anthropic/create-anthropic-provider.ts';
import type { ModelNotConfiguredError } from '../errors/model-not-configured-error.ts';
import { ScriptInvalidError } from '../errors/script-invalid-error.ts';
import type { ProviderTimeouts } from '../http/provider-timeouts.ts';
import type { ModelProvider } from '../model-provider.ts';
import { createOpenAiProvider } from '../openai/create-openai-provider.ts';
import { withRetries, type RetryOptions } from '../retry/with-retries.ts';
import type { ScriptPosition } from '../scripted/create-scripted-provider.ts';
import { loadScriptedProvider } from '../scripted/load-scripted-provider.ts';
import { readDefaultEndpoint, type ModelEndpoint } from './read-model-endpoint.ts';
import { promptCacheFor, type PromptCacheMode } from '../cache/prompt-cache-mode.ts';
import { strictDialectFor, type StrictToolsMode } from '../strict/plan-strict-tools.ts';

/** The environment variables read here (`process.env` fits). */
export type ProviderEnvironment = Readonly<Record<string, string | undefined>>;

export type ProviderConfigOptions = {
  timeouts?: Partial<ProviderTimeouts>;
  /** Retries for the HTTP providers; on by default, `false` to leave them to the caller. */
  retries?: RetryOptions | false;
  fetch?: typeof globalThis.fetch;
  /**
   * Where a scripted model's cursor starts, per script path (the model name): how many of each agent's
   * turns calls already took, as the log says after a restart, so a demo resumes instead of replaying.
   */
  scriptedPositions?: Readonly<Record<string, ScriptPosition>>;
  /** `FORJA_STRICT_TOOLS`: where tools are declared strict (`auto` by default). */
  strictTools?: StrictToolsMode;
  /** `FORJA_PROMPT_CACHE`: where requests ask for the prompt cache (`auto` by default). */
  promptCache?: PromptCacheMode;
  /** Told once per endpoint when its server refuses strict tools (the provider then sends them without). */
  onStrictRefused?: (notice: { provider: string; model: string; message: string }) => void;
};

/** A provider, or the reason none could be built; bad configuration is an expected outcome. */
export type ProviderConfigResult =
  | { ok: true; provider: ModelProvider }
  | { ok: false; error: ModelNotConfiguredError | ScriptInvalidError };

/**
 * Builds the provider `FORJA_MODEL=provider:model` names, reading OPENAI_API_KEY, OPENAI_BASE_URL,
 * ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL. Returns instead of throwing, so `forja serve` can start
 * without a model and answer the error wherever a model is needed.
 */
export function createProviderFromConfig(
  env: ProviderEnvironment,
  options: ProviderConfigOptions = {},
): ProviderConfigResult {
  const read = readDefaultEndpoint(env);
  if (!read.ok) return read;
  return createProviderFromEndpoint(read.endpoint, options);
}

/** The provider of one endpoint (the default model's, or an agent kind's own), retried unless told not to. */
export function createProviderFromEndpoint(
  endpoint: ModelEndpoint,
  options: ProviderConfigOptions = {},
): ProviderConfigResult {
  if (endpoint.kind === 'scripted')
    return loadScripted(
      endpoint.model,
      options.retries,
      options.scriptedPositions?.[endpoint.model],
    );
  const adapterOptions = {
    model: endpoint.model,
    ...endpoint.credentials,
    strictTools: strictDialectFor(
      { kind: endpoint.kind, model: endpoint.model, ...endpoint.credentials },
      options.strictTools ?? 'auto',
    ),
    promptCache: promptCacheFor(
      { kind: endpoint.kind, ...endpoint.credentials },
      options.promptCache ?? 'auto',
    ),
    ...(options.onStrictRefused ? { onStrictRefused: options.onStrictRefused } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  const adapter =
    endpoint.kind === 'openai'
      ? createOpenAiProvider(adapterOptions)
      : createAnthropicProvider(adapterOptions);
  return {
    ok: true,
    provider: options.retries === false ? adapter : withRetries(adapter, options.retries),
  };
}

// Retried like the HTTP providers, so a script's `fail: {status: 429}` turn is retried as a real 429 is.
function loadScripted(
  path: string,
  retries: RetryOptions | false | undefined,
  startAt: ScriptPosition | undefined,
): ProviderConfigResult {
  try {
    const provider = loadScriptedProvider(path, startAt === undefined ? {} : { startAt });
    return { ok: true, provider: retries === false ? provider : withRetries(provider, retries) };
  } catch (error) {
    if (error instanceof ScriptInvalidError) return { ok: false, error };
    throw error;
  }
}
