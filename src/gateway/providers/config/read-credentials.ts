import type { ModelNotConfiguredError } from '../errors/model-not-configured-error.ts';
import { apiKeyMissingError, baseUrlInvalidError } from './model-configuration-errors.ts';

/** Where each HTTP provider takes its key and base URL from. */
export const credentialVariables = {
  openai: {
    keyVariable: 'OPENAI_API_KEY',
    baseUrlVariable: 'OPENAI_BASE_URL',
    example: 'Ollama at http://localhost:11434/v1',
  },
  anthropic: {
    keyVariable: 'ANTHROPIC_API_KEY',
    baseUrlVariable: 'ANTHROPIC_BASE_URL',
    example: 'a local proxy that holds the key',
  },
} as const;

export type Credentials = { apiKey?: string; baseUrl?: string };

/**
 * Reads an HTTP provider's key and base URL. A key is required unless a base URL points somewhere
 * else, because local servers (Ollama, vLLM, LM Studio) usually need none.
 */
export function readCredentials(fields: {
  env: Readonly<Record<string, string | undefined>>;
  provider: keyof typeof credentialVariables;
  model: string;
}): { ok: true; credentials: Credentials } | { ok: false; error: ModelNotConfiguredError } {
  const { keyVariable, baseUrlVariable, example } = credentialVariables[fields.provider];
  const apiKey = fields.env[keyVariable]?.trim() || undefined;
  const baseUrl = fields.env[baseUrlVariable]?.trim() || undefined;
  if (baseUrl !== undefined && !isHttpUrl(baseUrl))
    return { ok: false, error: baseUrlInvalidError(baseUrlVariable) };
  if (apiKey === undefined && baseUrl === undefined) {
    const setting = `${fields.provider}:${fields.model}`;
    return {
      ok: false,
      error: apiKeyMissingError({ setting, keyVariable, baseUrlVariable, example }),
    };
  }
  return {
    ok: true,
    credentials: { ...(apiKey ? { apiKey } : {}), ...(baseUrl ? { baseUrl } : {}) },
  };
}

/**
 * Checks both base URLs whenever they are set, whichever provider FORJA_MODEL names: the embeddings read
 * OPENAI_BASE_URL too, and a typo should not wait until the provider is switched to surface.
 */
export function checkBaseUrls(
  env: Readonly<Record<string, string | undefined>>,
): ModelNotConfiguredError | null {
  for (const { baseUrlVariable } of Object.values(credentialVariables)) {
    const baseUrl = env[baseUrlVariable]?.trim() || undefined;
    if (baseUrl !== undefined && !isHttpUrl(baseUrl)) return baseUrlInvalidError(baseUrlVariable);
  }
  return null;
}

/** Whether `value` is an absolute http:// or https:// URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
