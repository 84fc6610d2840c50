/** The providers `FORJA_MODEL` can name. */
export const providerKinds = ['openai', 'anthropic', 'scripted'] as const;
export type ProviderKind = (typeof providerKinds)[number];

/** `FORJA_MODEL` read: which provider and which model (or, for `scripted`, which file). */
export type ModelSetting =
  | { ok: true; kind: ProviderKind; model: string }
  | {
      ok: false;
      problem: 'model-unset' | 'model-malformed' | 'unknown-provider';
      provider?: string;
    };

/**
 * Splits `FORJA_MODEL=provider:model` at the first colon only, because model names and paths may
 * contain colons themselves (`openai:llama3.1:8b` on Ollama, `scripted:C:\scripts\demo.json`).
 */
export function parseModelSetting(value: string | undefined): ModelSetting {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') return { ok: false, problem: 'model-unset' };
  const colon = trimmed.indexOf(':');
  if (colon <= 0 || colon === trimmed.length - 1) return { ok: false, problem: 'model-malformed' };
  const provider = trimmed.slice(0, colon);
  const model = trimmed.slice(colon + 1).trim();
  if (!isProviderKind(provider)) return { ok: false, problem: 'unknown-provider', provider };
  return { ok: true, kind: provider, model };
}

function isProviderKind(value: string): value is ProviderKind {
  return (providerKinds as readonly string[]).includes(value);
}
