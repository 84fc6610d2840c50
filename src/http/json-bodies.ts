import type { MiddlewareHandler } from 'hono';
import { apiError } from './api-error.ts';

export const MALFORMED_JSON = apiError('malformed_json', 'The request body is not valid JSON.');
export const NOT_JSON = apiError(
  'unsupported_media_type',
  'Send the request body as JSON with the header Content-Type: application/json.',
);

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
const BODILESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one rule for request bodies, applied before any route reads one. An empty body is read as `{}`, whatever
 * its content type (a body-less POST from curl or a form). Any other body must be declared JSON (415 otherwise)
 * and be valid JSON (400 otherwise). Each route's strict schema then refuses what it does not take, so a route
 * that takes no body accepts nothing or `{}` and refuses any field.
 */
export function jsonBodies(): MiddlewareHandler {
  return async (context, next) => {
    if (BODILESS_METHODS.has(context.req.method)) return next();
    const body = await context.req.text();
    if (body.length === 0) {
      const headers = new Headers(context.req.raw.headers);
      headers.delete('content-type');
      headers.delete('content-length');
      context.req.raw = new Request(context.req.raw.url, {
        method: context.req.method,
        headers,
        signal: context.req.raw.signal,
      });
      return next();
    }
    const mediaType = (context.req.header('content-type') ?? '').split(';')[0]!.trim();
    if (!JSON_MEDIA_TYPE.test(mediaType)) return context.json(NOT_JSON, 415);
    try {
      JSON.parse(body);
    } catch {
      return context.json(MALFORMED_JSON, 400);
    }
    return next();
  };
}
