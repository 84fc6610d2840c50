import type { ModelNotConfiguredError } from '../errors/model-not-configured-error.ts';
import {
  AGENT_MODEL_KINDS,
  agentEndpointVariables,
  DEFAULT_MODEL_VARIABLE,
  type AgentModelKind,
} from './agent-model-kinds.ts';
import {
  agentEndpointWithoutModelError,
  apiKeyMissingError,
  baseUrlInvalidError,
  modelMalformedError,
  modelUnsetError,
  unknownModelVariableError,
  unknownProviderError,
} from './model-configuration-errors.ts';
import { parseModelSetting } from './parse-model-setting.ts';
import {
  credentialVariables,
  isHttpUrl,
  readCredentials,
  type Credentials,
} from './read-credentials.ts';

type Environment = Readonly<Record<string, string | undefined>>;

/** Where one model is reached: the provider, the model, and (for HTTP) its credentials and their variables. */
export type ModelEndpoint =
  | { kind: 'scripted'; model: string; variable: string }
  | {
      kind: 'openai' | 'anthropic';
      model: string;
      /** The variable that named the model (`FORJA_MODEL`, `FORJA_MODEL_DEV`). */
      variable: string;
      credentials: Credentials;
      /** The variables the key and base URL came from, for messages that name them (never their values). */
      keyVariable: string;
      baseUrlVariable: string;
    };

export type EndpointResult =
  | { ok: true; endpoint: ModelEndpoint }
  | { ok: false; error: ModelNotConfiguredError };

/** `FORJA_MODEL` with `OPENAI_*` / `ANTHROPIC_*`: the model every agent uses unless it has its own. */
export function readDefaultEndpoint(env: Environment): EndpointResult {
  const parsed = parseSetting(env, DEFAULT_MODEL_VARIABLE);
  if (!parsed.ok) return parsed;
  const { kind, model } = parsed;
  if (kind === 'scripted')
    return { ok: true, endpoint: { kind, model, variable: DEFAULT_MODEL_VARIABLE } };
  const read = readCredentials({ env, provider: kind, model });
  if (!read.ok) return read;
  const { keyVariable, baseUrlVariable } = credentialVariables[kind];
  return {
    ok: true,
    endpoint: {
      kind,
      model,
      variable: DEFAULT_MODEL_VARIABLE,
      credentials: read.credentials,
      keyVariable,
      baseUrlVariable,
    },
  };
}

/**
 * `FORJA_MODEL_<KIND>` and its endpoint, or null when the kind has no model of its own (it uses the default).
 * With `FORJA_MODEL_<KIND>_BASE_URL` the kind talks to a server of its own, with `FORJA_MODEL_<KIND>_API_KEY`
 * as its only key: the provider's global key belongs to another server and is never sent there. Without it,
 * the kind uses the provider's `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL`, with its own key if set, else the
 * provider's key.
 */
export function readAgentEndpoint(
  env: Environment,
  agentKind: AgentModelKind,
): { ok: true; endpoint: ModelEndpoint | null } | { ok: false; error: ModelNotConfiguredError } {
  const variables = agentEndpointVariables(agentKind);
  if (settingOf(env, variables.model) === undefined) {
    for (const orphan of [variables.baseUrl, variables.apiKey])
      if (settingOf(env, orphan) !== undefined)
        return { ok: false, error: agentEndpointWithoutModelError(orphan, variables.model) };
    return { ok: true, endpoint: null };
  }
  const parsed = parseSetting(env, variables.model);
  if (!parsed.ok) return parsed;
  const { kind, model } = parsed;
  if (kind === 'scripted')
    return { ok: true, endpoint: { kind, model, variable: variables.model } };
  const global = credentialVariables[kind];
  const ownBaseUrl = settingOf(env, variables.baseUrl);
  if (ownBaseUrl !== undefined && !isHttpUrl(ownBaseUrl))
    return { ok: false, error: baseUrlInvalidError(variables.baseUrl) };
  const ownKey = settingOf(env, variables.apiKey);
  const globalBaseUrl = settingOf(env, global.baseUrlVariable);
  if (ownBaseUrl === undefined && globalBaseUrl !== undefined && !isHttpUrl(globalBaseUrl))
    return { ok: false, error: baseUrlInvalidError(global.baseUrlVariable) };
  const baseUrl = ownBaseUrl ?? globalBaseUrl;
  const apiKey = ownBaseUrl !== undefined ? ownKey : (ownKey ?? settingOf(env, global.keyVariable));
  const keyVariable =
    ownKey !== undefined || ownBaseUrl !== undefined ? variables.apiKey : global.keyVariable;
  const baseUrlVariable = ownBaseUrl !== undefined ? variables.baseUrl : global.baseUrlVariable;
  if (apiKey === undefined && baseUrl === undefined)
    return {
      ok: false,
      error: apiKeyMissingError({
        modelVariable: variables.model,
        setting: `${kind}:${model}`,
        keyVariable: variables.apiKey,
        baseUrlVariable: variables.baseUrl,
        example: global.example,
      }),
    };
  return {
    ok: true,
    endpoint: {
      kind,
      model,
      variable: variables.model,
      credentials: { ...(apiKey ? { apiKey } : {}), ...(baseUrl ? { baseUrl } : {}) },
      keyVariable,
      baseUrlVariable,
    },
  };
}

/**
 * Every `FORJA_MODEL_…` variable must be one Forja reads: the default, a kind's model, base URL and key, and
 * the context-window settings (`FORJA_MODEL_CONTEXT_TOKENS`, with any agent suffix) and the output caps
 * (`FORJA_MODEL_OUTPUT_TOKENS_<AGENT>`, read by their own reader). Returns the first stranger.
 */
export function findUnknownModelVariable(env: Environment): ModelNotConfiguredError | null {
  const known = new Set<string>([DEFAULT_MODEL_VARIABLE]);
  for (const kind of AGENT_MODEL_KINDS)
    for (const variable of Object.values(agentEndpointVariables(kind))) known.add(variable);
  for (const variable of Object.keys(env).sort()) {
    if (!variable.startsWith(`${DEFAULT_MODEL_VARIABLE}_`) || known.has(variable)) continue;
    if (
      variable === 'FORJA_MODEL_CONTEXT_TOKENS' ||
      variable.startsWith('FORJA_MODEL_CONTEXT_TOKENS_') ||
      // The output caps per agent are checked by their own reader, which names the kinds it takes.
      variable === 'FORJA_MODEL_OUTPUT_TOKENS' ||
      variable.startsWith('FORJA_MODEL_OUTPUT_TOKENS_')
    )
      continue;
    return unknownModelVariableError(
      variable,
      AGENT_MODEL_KINDS.map((kind) => kind.toUpperCase().replace(/-/g, '_')),
    );
  }
  return null;
}

function parseSetting(
  env: Environment,
  variable: string,
):
  | { ok: true; kind: 'scripted' | 'openai' | 'anthropic'; model: string }
  | { ok: false; error: ModelNotConfiguredError } {
  const setting = parseModelSetting(env[variable]);
  if (setting.ok) return { ok: true, kind: setting.kind, model: setting.model };
  if (setting.problem === 'model-unset') return { ok: false, error: modelUnsetError() };
  if (setting.problem === 'unknown-provider')
    return { ok: false, error: unknownProviderError(setting.provider ?? '', variable) };
  return { ok: false, error: modelMalformedError(env[variable]?.trim() ?? '', variable) };
}

function settingOf(env: Environment, variable: string): string | undefined {
  return env[variable]?.trim() || undefined;
}
