import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The one shape of every error the API answers: a stable code, a sentence, and the field when there is one. */
export interface ApiErrorBody {
  error: { code: string; message: string; field?: string };
}

export function apiError(code: string, message: string, field?: string): ApiErrorBody {
  return { error: field === undefined ? { code, message } : { code, message, field } };
}

export function respondWithError(
  context: Context,
  status: ContentfulStatusCode,
  code: string,
  message: string,
  field?: string,
) {
  return context.json(apiError(code, message, field), status);
}
