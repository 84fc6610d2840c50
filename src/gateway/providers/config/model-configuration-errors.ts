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

export function modelMalformedError(value: string): ModelNotConfiguredError {
  return new ModelNotConfiguredError({
    problem: 'model-malformed',
    variables: ['FORJA_MODEL'],
    message: `FORJA_MODEL="${value}" is not provider:model: ${howToConfigure}`,
  });
}

export function unknownProviderError(provider: string): ModelNotConfiguredError {
  return new ModelNotConfiguredError({
    problem: 'unknown-provider',
    variables: ['FORJA_MODEL'],
    message: `FORJA_MODEL names an unknown provider "${provider}": ${howToConfigure}`,
  });
}

export function apiKeyMissingError(fields: {
  setting: string;
  keyVariable: string;
  baseUrlVariable: string;
  example: string;
}): ModelNotConfiguredError {
  return new ModelNotConfiguredError({
    problem: 'api-key-missing',
    variables: [fields.keyVariable, fields.baseUrlVariable],
    message:
      `FORJA_MODEL=${fields.setting} needs ${fields.keyVariable}; or set ${fields.baseUrlVariable} to a ` +
      `server that needs no key (for example ${fields.example})`,
  });
}

export function baseUrlInvalidError(variable: string): ModelNotConfiguredError {
  return new ModelNotConfiguredError({
    problem: 'base-url-invalid',
    variables: [variable],
    message: `${variable} must be an absolute http:// or https:// URL`,
  });
}
