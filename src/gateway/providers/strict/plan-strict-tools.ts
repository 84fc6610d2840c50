import type { JsonSchema, ToolDefinition } from '../model-provider.ts';
import { toStrictSchema, type StrictDialect } from './strict-tool-schema.ts';

/** The tools of one request sent in strict mode, by name, with the schema each is sent with. */
export type StrictToolPlan = {
  dialect: StrictDialect;
  schemas: ReadonlyMap<string, JsonSchema>;
};

/** Anthropic's limits on strict tools in one request (its structured outputs documentation). */
const ANTHROPIC_MAX_STRICT_TOOLS = 20;
const ANTHROPIC_MAX_OPTIONAL = 24;
const ANTHROPIC_MAX_UNIONS = 16;

/**
 * Which of a request's tools go strict: for OpenAI each tool whose schema qualifies; for Anthropic the same,
 * unless together they pass its per-request limits (20 strict tools, 24 optional properties, 16 union-typed
 * ones), in which case none does — a request it would refuse is worse than one without strict mode.
 */
export function planStrictTools(
  tools: readonly ToolDefinition[],
  dialect: StrictDialect,
): StrictToolPlan {
  const schemas = new Map<string, JsonSchema>();
  let optional = 0;
  let unions = 0;
  for (const tool of tools) {
    const result = toStrictSchema(tool.parameters, dialect);
    if (!result.ok) continue;
    schemas.set(tool.name, result.schema);
    optional += result.optionalProperties;
    unions += result.unionProperties;
  }
  const overLimits =
    dialect === 'anthropic' &&
    (schemas.size > ANTHROPIC_MAX_STRICT_TOOLS ||
      optional > ANTHROPIC_MAX_OPTIONAL ||
      unions > ANTHROPIC_MAX_UNIONS);
  return { dialect, schemas: overLimits ? new Map() : schemas };
}

/** `FORJA_STRICT_TOOLS`: `auto` (where the provider's own API offers it), `on` (every endpoint), `off`. */
export type StrictToolsMode = 'auto' | 'on' | 'off';

export const STRICT_TOOLS_VARIABLE = 'FORJA_STRICT_TOOLS';

/** Reads `FORJA_STRICT_TOOLS` (default `auto`); another value is an error naming the variable and the rule. */
export function readStrictToolsMode(
  env: Readonly<Record<string, string | undefined>>,
): { ok: true; mode: StrictToolsMode } | { ok: false; variable: string; message: string } {
  const value = env[STRICT_TOOLS_VARIABLE]?.trim() || 'auto';
  if (value === 'auto' || value === 'on' || value === 'off') return { ok: true, mode: value };
  return {
    ok: false,
    variable: STRICT_TOOLS_VARIABLE,
    message: `${STRICT_TOOLS_VARIABLE} must be auto, on or off, not "${env[STRICT_TOOLS_VARIABLE]}".`,
  };
}

/** Claude models with strict tool use: the 4.5 generation and later, and Opus 4.1. */
const ANTHROPIC_STRICT_MODELS = /claude-(opus|sonnet|haiku)-(4-[5-9]|4-1\b|[5-9])|claude-opus-4-1/;

/**
 * Whether an endpoint's requests declare strict tools, and in which dialect. `auto`: OpenAI's own API (every
 * model with function calling takes `strict`) and Anthropic's own API for the models that have strict tool use;
 * compatible servers (Ollama, vLLM, LM Studio, OpenRouter) ignore or refuse the field, so only `on` sends it.
 */
export function strictDialectFor(
  endpoint: { kind: 'openai' | 'anthropic'; model: string; baseUrl?: string },
  mode: StrictToolsMode,
): StrictDialect | null {
  if (mode === 'off') return null;
  if (mode === 'on') return endpoint.kind;
  const host = endpoint.baseUrl === undefined ? null : hostOf(endpoint.baseUrl);
  if (endpoint.kind === 'openai')
    return host === null || host === 'api.openai.com' ? 'openai' : null;
  return (host === null || host === 'api.anthropic.com') &&
    ANTHROPIC_STRICT_MODELS.test(endpoint.model)
    ? 'anthropic'
    : null;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}
