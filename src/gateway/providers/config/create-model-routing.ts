import { ModelNotConfiguredError } from '../errors/model-not-configured-error.ts';
import { readPromptCacheMode } from '../cache/prompt-cache-mode.ts';
import { readStrictToolsMode } from '../strict/plan-strict-tools.ts';
import type { ScriptInvalidError } from '../errors/script-invalid-error.ts';
import type { ModelProvider } from '../model-provider.ts';
import {
  AGENT_MODEL_KINDS,
  agentModelKind,
  agentModelVariable,
  DEFAULT_MODEL_VARIABLE,
  type AgentModelKind,
} from './agent-model-kinds.ts';
import {
  createProviderFromEndpoint,
  type ProviderConfigOptions,
  type ProviderEnvironment,
} from './create-provider-from-config.ts';
import {
  findUnknownModelVariable,
  readAgentEndpoint,
  readDefaultEndpoint,
  type ModelEndpoint,
} from './read-model-endpoint.ts';

/** A provider, or why an agent has none (the message names the variables to set). */
export type ProviderOrReason = ModelProvider | { notConfigured: string };

/** Which model one agent kind uses, and the variable that chose it. */
export type AgentModelAssignment = {
  agent: AgentModelKind;
  /** `FORJA_MODEL_<KIND>` when the kind has a model of its own, else `FORJA_MODEL`. */
  variable: string;
} & (
  | { configured: true; provider: string; model: string }
  | { configured: false; message: string }
);

/** Which provider serves each agent's calls (`FORJA_MODEL`, overridden per kind by `FORJA_MODEL_<KIND>`). */
export interface ModelRouting {
  /** The provider of `agent`'s calls (`dev:billing` is served as `dev`; an agent of no kind by the default). */
  providerFor(agent: string): ProviderOrReason;
  /** Where `agent`'s model is reached, or null when it has none (unset, or a setting that did not work). */
  endpointFor(agent: string): ModelEndpoint | null;
  /** Every kind, in the roster's order, with its model. */
  assignments(): readonly AgentModelAssignment[];
}

/** A model setting that does not work: the variable to fix, and why. */
export type ModelSettingProblem = {
  variable: string;
  error: ModelNotConfiguredError | ScriptInvalidError;
};

type Slot = { provider: ProviderOrReason; endpoint: ModelEndpoint | null; variable: string };

/**
 * Reads `FORJA_MODEL` and every `FORJA_MODEL_<KIND>` and builds one provider per distinct endpoint: kinds that
 * name the same model on the same server share it (and a scripted file's cursor). Nothing here throws; each
 * setting that does not work is a `problem` (start-up exits 2 on it) and leaves its agents without a model.
 */
export function createModelRouting(
  env: ProviderEnvironment,
  options: ProviderConfigOptions = {},
): { routing: ModelRouting; problems: ModelSettingProblem[] } {
  const problems: ModelSettingProblem[] = [];
  const strict = readStrictToolsMode(env);
  if (!strict.ok)
    problems.push({
      variable: strict.variable,
      error: new ModelNotConfiguredError({
        problem: 'strict-tools-invalid',
        variables: [strict.variable],
        message: strict.message,
      }),
    });
  const cache = readPromptCacheMode(env);
  if (!cache.ok)
    problems.push({
      variable: cache.variable,
      error: new ModelNotConfiguredError({
        problem: 'prompt-cache-invalid',
        variables: [cache.variable],
        message: cache.message,
      }),
    });

  const unknown = findUnknownModelVariable(env);
  if (unknown !== null) problems.push({ variable: unknown.variables[0]!, error: unknown });
  const built = new Map<string, ProviderOrReason>();
  const providerOf = (endpoint: ModelEndpoint): ProviderOrReason => {
    const key = endpointKey(endpoint);
    const known = built.get(key);
    if (known !== undefined) return known;
    const result = createProviderFromEndpoint(endpoint, {
      ...options,
      strictTools: options.strictTools ?? (strict.ok ? strict.mode : 'auto'),
      promptCache: options.promptCache ?? (cache.ok ? cache.mode : 'auto'),
    });
    if (!result.ok) problems.push({ variable: endpoint.variable, error: result.error });
    const provider = result.ok ? result.provider : { notConfigured: result.error.message };
    built.set(key, provider);
    return provider;
  };
  const defaultRead = readDefaultEndpoint(env);
  if (!defaultRead.ok && defaultRead.error.problem !== 'model-unset')
    problems.push({
      variable: defaultRead.error.variables[0] ?? DEFAULT_MODEL_VARIABLE,
      error: defaultRead.error,
    });
  const fallback: Slot = defaultRead.ok
    ? {
        provider: providerOf(defaultRead.endpoint),
        endpoint: defaultRead.endpoint,
        variable: DEFAULT_MODEL_VARIABLE,
      }
    : {
        provider: { notConfigured: defaultRead.error.message },
        endpoint: null,
        variable: DEFAULT_MODEL_VARIABLE,
      };
  const slots = new Map<AgentModelKind, Slot>();
  for (const kind of AGENT_MODEL_KINDS) {
    const read = readAgentEndpoint(env, kind);
    if (!read.ok) {
      problems.push({
        variable: read.error.variables[0] ?? agentModelVariable(kind),
        error: read.error,
      });
      slots.set(kind, {
        provider: { notConfigured: read.error.message },
        endpoint: null,
        variable: agentModelVariable(kind),
      });
    } else if (read.endpoint === null) slots.set(kind, fallback);
    else
      slots.set(kind, {
        provider: providerOf(read.endpoint),
        endpoint: read.endpoint,
        variable: read.endpoint.variable,
      });
  }
  const slotOf = (agent: string): Slot => {
    const kind = agentModelKind(agent);
    return kind === null ? fallback : (slots.get(kind) ?? fallback);
  };
  return {
    routing: {
      providerFor: (agent) => slotOf(agent).provider,
      endpointFor: (agent) => (isProvider(slotOf(agent).provider) ? slotOf(agent).endpoint : null),
      assignments: () => AGENT_MODEL_KINDS.map((kind) => assignmentOf(kind, slots.get(kind)!)),
    },
    problems,
  };
}

/** One provider (or none) for every agent: what tests and `createForja({ provider })` give. */
export function singleModelRouting(provider: ProviderOrReason): ModelRouting {
  return {
    providerFor: () => provider,
    endpointFor: () => null,
    assignments: () =>
      AGENT_MODEL_KINDS.map((kind) =>
        assignmentOf(kind, { provider, endpoint: null, variable: DEFAULT_MODEL_VARIABLE }),
      ),
  };
}

/** Whether a routing or a single provider was given (the gateway takes either). */
export function isModelRouting(value: ProviderOrReason | ModelRouting): value is ModelRouting {
  return 'providerFor' in value;
}

function assignmentOf(kind: AgentModelKind, slot: Slot): AgentModelAssignment {
  return isProvider(slot.provider)
    ? {
        agent: kind,
        variable: slot.variable,
        configured: true,
        provider: slot.provider.name,
        model: slot.provider.model,
      }
    : {
        agent: kind,
        variable: slot.variable,
        configured: false,
        message: slot.provider.notConfigured,
      };
}

function isProvider(value: ProviderOrReason): value is ModelProvider {
  return !('notConfigured' in value);
}

function endpointKey(endpoint: ModelEndpoint): string {
  return endpoint.kind === 'scripted'
    ? JSON.stringify([endpoint.kind, endpoint.model])
    : JSON.stringify([
        endpoint.kind,
        endpoint.model,
        endpoint.credentials.baseUrl ?? null,
        endpoint.credentials.apiKey ?? null,
      ]);
}
