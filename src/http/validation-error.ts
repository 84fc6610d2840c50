import type { ZodError } from 'zod';
import { apiError, type ApiErrorBody } from './api-error.ts';

/**
 * Turns the first zod issue into the API's error shape, naming the field and the rule. One issue at a time
 * keeps the message readable; fixing it reveals the next.
 */
export function validationErrorBody(error: ZodError, target: string): ApiErrorBody {
  const issue = error.issues[0];
  if (!issue) return apiError('invalid_request', `The ${target} is invalid.`);
  if (issue.code === 'unrecognized_keys') {
    const field = [...issue.path, issue.keys[0] ?? ''].join('.');
    return apiError(
      'unknown_field',
      `Unknown field "${field}" in the ${target}; it is not accepted here.`,
      field,
    );
  }
  const field = issue.path.length > 0 ? issue.path.join('.') : undefined;
  if (field === undefined) return apiError('invalid_request', `The ${target} ${issue.message}.`);
  return apiError('invalid_field', `${field}: ${issue.message}.`, field);
}
