import { parseModelSetting } from '../providers/config/parse-model-setting.ts';
import { readCredentials } from '../providers/config/read-credentials.ts';
import type { EmbeddingProvider } from './embedding-provider.ts';
import { createOpenAiEmbeddingProvider } from './create-openai-embedding-provider.ts';

/** The dimension Forja asks of provider embeddings, so they fit the HNSW column. */
export const PROVIDER_EMBEDDING_DIMENSIONS = 256;

export type EmbeddingProviderConfig =
  | { ok: true; provider: EmbeddingProvider | null }
  | { ok: false; variable: string; message: string };

/**
 * Reads `FORJA_EMBEDDING_MODEL=openai:<model>` (with OPENAI_API_KEY / OPENAI_BASE_URL). Unset means no
 * provider: Forja then embeds locally, with no network and no download.
 */
export function createEmbeddingProviderFromConfig(
  env: Readonly<Record<string, string | undefined>>,
  fetch?: typeof globalThis.fetch,
): EmbeddingProviderConfig {
  const raw = env['FORJA_EMBEDDING_MODEL']?.trim() ?? '';
  if (raw === '') return { ok: true, provider: null };
  const setting = parseModelSetting(raw);
  if (!setting.ok || setting.kind !== 'openai')
    return {
      ok: false,
      variable: 'FORJA_EMBEDDING_MODEL',
      message: `FORJA_EMBEDDING_MODEL="${raw}" must be openai:<model> (any OpenAI-compatible server).`,
    };
  const read = readCredentials({ env, provider: 'openai', model: setting.model });
  if (!read.ok)
    return {
      ok: false,
      variable: read.error.variables[0] ?? 'FORJA_EMBEDDING_MODEL',
      message: read.error.message,
    };
  const dimensions =
    env['FORJA_EMBEDDING_DIMENSIONS'] === undefined
      ? PROVIDER_EMBEDDING_DIMENSIONS
      : Number(env['FORJA_EMBEDDING_DIMENSIONS']);
  if (!Number.isInteger(dimensions) || dimensions <= 0)
    return {
      ok: false,
      variable: 'FORJA_EMBEDDING_DIMENSIONS',
      message: 'FORJA_EMBEDDING_DIMENSIONS must be a positive whole number.',
    };
  return {
    ok: true,
    provider: createOpenAiEmbeddingProvider({
      model: setting.model,
      ...read.credentials,
      dimensions,
      ...(fetch ? { fetch } : {}),
    }),
  };
}
