/** `FORJA_PROMPT_CACHE`: `auto` (the provider's own API), `on` (every endpoint), `off`. */
export type PromptCacheMode = 'auto' | 'on' | 'off';

export const PROMPT_CACHE_VARIABLE = 'FORJA_PROMPT_CACHE';

/** Reads `FORJA_PROMPT_CACHE` (default `auto`); another value is an error naming the variable and the rule. */
export function readPromptCacheMode(
  env: Readonly<Record<string, string | undefined>>,
): { ok: true; mode: PromptCacheMode } | { ok: false; variable: string; message: string } {
  const value = env[PROMPT_CACHE_VARIABLE]?.trim() || 'auto';
  if (value === 'auto' || value === 'on' || value === 'off') return { ok: true, mode: value };
  return {
    ok: false,
    variable: PROMPT_CACHE_VARIABLE,
    message: `${PROMPT_CACHE_VARIABLE} must be auto, on or off, not "${env[PROMPT_CACHE_VARIABLE]}".`,
  };
}

/**
 * Whether an endpoint's requests ask for the prompt cache (Anthropic's `cache_control` breakpoints, OpenAI's
 * `prompt_cache_key`). `auto`: the provider's own API, which documents both; a compatible server (Ollama, vLLM,
 * LM Studio, a proxy) may refuse a field it does not know, so only `on` sends them there.
 */
export function promptCacheFor(
  endpoint: { kind: 'openai' | 'anthropic'; baseUrl?: string },
  mode: PromptCacheMode,
): boolean {
  if (mode !== 'auto') return mode === 'on';
  if (endpoint.baseUrl === undefined) return true;
  const host = URL.canParse(endpoint.baseUrl) ? new URL(endpoint.baseUrl).hostname : null;
  return host === (endpoint.kind === 'openai' ? 'api.openai.com' : 'api.anthropic.com');
}
