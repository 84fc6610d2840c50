import { ModelNotConfiguredError } from '../errors/model-not-configured-error.ts';

/**
 * The configuration errors, each telling the person exactly which variables to set. Values of
 * variables that may hold secrets (keys, URLs with credentials) are never repeated back.
 */
const howToConfigure =
  'set FORJA_MODEL=openai:<model> (with OPENAI_API_KEY, OPENAI_BASE_URL for Ollama/vLLM/LM Studio/OpenRouter) ' +
  'or anthropic:<model> (with ANTHROPIC_API_KEY) or scripted:<path>';

export function modelUnsetError(): ModelNotConfiguredError {
  return new ModelNotConfiguredError({
    problem: 'model-unset',
    variables: ['FORJA_MODEL'],
    message: `No model configured: ${howToConfigure}`,
  });
}

export function modelMalformedError(
  value: string,
  variable = 'FORJA_MODEL',
): ModelNotConfiguredError {
  return new ModelNotConfiguredError({
    problem: 'model-malformed',
    variables: [variable],
    message: `${variable}="${value}" is not provider:model: ${howToConfigure.replace('FORJA_MODEL', variable)}`,
  });
}

export function unknownProviderError(
  provider: string,
  variable = 'FORJA_MODEL',
): ModelNotConfiguredError {
  return new ModelNotConfiguredError({
    problem: 'unknown-provider',
    variables: [variable],
    message: `${variable} names an unknown provider "${provider}": ${howToConfigure.replace('FORJA_MODEL', variable)}`,
  });
}

export function apiKeyMissingError(fields: {
  /** The variable that names the model (`FORJA_MODEL`, `FORJA_MODEL_DEV`). */
  modelVariable?: string;
  setting: string;
  keyVariable: string;
  baseUrlVariable: string;
  example: string;
}): ModelNotConfiguredError {
  return new ModelNotConfiguredError({
    problem: 'api-key-missing',
    variables: [fields.keyVariable, fields.baseUrlVariable],
    message:
      `${fields.modelVariable ?? 'FORJA_MODEL'}=${fields.setting} needs ${fields.keyVariable}; or set ${fields.baseUrlVariable} to a ` +
      `server that needs no key (for example ${fields.example})`,
  });
}

/** `FORJA_MODEL_<KIND>_BASE_URL` or `_API_KEY` set while `FORJA_MODEL_<KIND>` is not: which model would they serve? */
export function agentEndpointWithoutModelError(
  variable: string,
  modelVariable: string,
): ModelNotConfiguredError {
  return new ModelNotConfiguredError({
    problem: 'agent-endpoint-without-model',
    variables: [variable, modelVariable],
    message: `${variable} is set but ${modelVariable} is not: set ${modelVariable}=provider:model for the agent it serves, or unset ${variable}`,
  });
}

/** A `FORJA_MODEL_…` variable Forja does not read (a typo would otherwise be ignored in silence). */
export function unknownModelVariableError(
  variable: string,
  known: readonly string[],
): ModelNotConfiguredError {
  return new ModelNotConfiguredError({
    problem: 'variable-unknown',
    variables: [variable],
    message: `${variable} is not a Forja setting: a model per agent is FORJA_MODEL_<AGENT> (with _BASE_URL and _API_KEY), AGENT one of ${known.join(', ')}; windows are FORJA_MODEL_CONTEXT_TOKENS[_<AGENT>]`,
  });
}

export function baseUrlInvalidError(variable: string): ModelNotConfiguredError {
  return new ModelNotConfiguredError({
    problem: 'base-url-invalid',
    variables: [variable],
    message: `${variable} must be an absolute http:// or https:// URL`,
  });
}
