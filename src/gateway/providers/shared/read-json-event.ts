import type { z } from 'zod';
import { ProviderStreamError } from '../errors/provider-stream-error.ts';

/**
 * Parses one event's JSON data against a schema. A chunk we cannot read is a broken stream, not a
 * crash: it becomes a ProviderStreamError that names the provider and what was wrong.
 */
export function readJsonEvent<Schema extends z.ZodType>(
  provider: string,
  data: string,
  schema: Schema,
): z.infer<Schema> {
  return validateEvent(provider, parseEventJson(provider, data), schema);
}

/** Parses event data as JSON or fails with a ProviderStreamError. */
export function parseEventJson(provider: string, data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new ProviderStreamError({
      provider,
      message: `malformed event data: ${data.slice(0, 200)}`,
      retryable: false,
    });
  }
}

/** Checks an already-parsed event against a schema or fails with a ProviderStreamError. */
export function validateEvent<Schema extends z.ZodType>(
  provider: string,
  value: unknown,
  schema: Schema,
): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where =
    issue === undefined ? '' : ` at ${issue.path.join('.') || '(root)'}: ${issue.message}`;
  throw new ProviderStreamError({
    provider,
    message: `unexpected event shape${where}`,
    retryable: false,
  });
}
