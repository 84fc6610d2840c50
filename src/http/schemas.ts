import { z } from '@hono/zod-openapi';

/** Schemas shared by routes, which also feed the OpenAPI document. */
export const ErrorSchema = z
  .object({
    error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
  })
  .openapi('Error');

export const ProjectSchema = z
  .object({ id: z.uuid(), name: z.string(), created_at: z.string() })
  .openapi('Project');

export const SessionSchema = z
  .object({
    id: z.uuid(),
    project_id: z.uuid(),
    title: z.string().nullable(),
    last_seq: z.number().int(),
    created_at: z.string(),
  })
  .openapi('Session');

export { SessionEventSchema } from './session-event-schema.ts';

/**
 * Text a request may carry, for every text field of every route: Postgres refuses a NUL character in `text`
 * and `jsonb`, and a lone UTF-16 surrogate in `jsonb` (in `text` it would be stored as U+FFFD), so both are
 * refused here with a 400 naming the field, before anything is stored.
 */
export const text = () =>
  z
    .string({ error: 'must be text' })
    .refine((value) => !value.includes('\u0000'), 'must not contain the NUL character (\\u0000)')
    .refine(
      (value) => value.isWellFormed(),
      'must not contain a lone UTF-16 surrogate (\\uD800–\\uDFFF without its pair)',
    );

/** The largest seq an event can have (the column is a Postgres `integer`). */
export const MAX_SEQ = 2_147_483_647;

/**
 * A whole number written in decimal digits (no sign, hex, exponent or spaces), from `min` to `max`: for query
 * strings and headers, where `z.coerce.number` would read `0x10` as 16 and `1e3` as 1000.
 */
export const decimalText = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number in decimal digits')
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, min === 0 ? 'must be 0 or more' : `must be at least ${min}`)
        .max(max, `must be at most ${max}`),
    );

/** A seq in a query string or header: after which event to read. */
export const seqText = () => decimalText(0, MAX_SEQ);

/**
 * The body of a route that takes none: an empty body (any content type) or `{}`. The app reads an empty body
 * as `{}` and refuses a non-empty one that is not JSON (415) or not valid JSON (400), so the strict schema
 * refuses the rest: any field, an array, a string.
 */
export const noBody = optionalJsonBody(z.strictObject({}).openapi('NoBody'));

/** A body that may be left out (read as `{}`); when sent, JSON matching the schema. */
export function optionalJsonBody<Schema extends z.ZodType>(schema: Schema) {
  return { required: false, content: { 'application/json': { schema } } };
}

/** A resource id: a UUID. */
export const uuidText = () => z.uuid({ error: 'must be a UUID' });

export const idParameter = (name: string) =>
  uuidText().openapi({
    param: { name, in: 'path' },
    example: '0193b7a4-8a5e-7cc1-9d8a-2b1f3c4d5e6f',
  });

export function errorResponses(
  ...statuses: Array<400 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502 | 503>
) {
  const descriptions = {
    400: 'Invalid request',
    403: 'Forbidden',
    404: 'Not found',
    409: 'Conflict',
    413: 'Body too large',
    415: 'Not JSON',
    422: 'Refused',
    429: 'Too many requests',
    502: 'The remote failed',
    503: 'Unavailable',
  };
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: descriptions[status],
        content: { 'application/json': { schema: ErrorSchema } },
      },
    ]),
  ) as Record<
    (typeof statuses)[number],
    { description: string; content: { 'application/json': { schema: typeof ErrorSchema } } }
  >;
}

export const jsonBody = <Schema extends z.ZodType>(schema: Schema) => ({
  required: true,
  content: { 'application/json': { schema } },
});
export const jsonContent = <Schema extends z.ZodType>(schema: Schema, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** A commit id in a path: 7 to 40 hexadecimal characters. */
export const shaParameter = (name: string) =>
  z
    .string()
    .regex(/^[0-9a-fA-F]{7,40}$/, 'must be a commit id: 7 to 40 hexadecimal characters')
    .openapi({ param: { name, in: 'path' }, example: '3f2c1ab' });

export const CommitDiffFileSchema = z
  .object({
    path: z.string(),
    old_path: z.string().nullable().openapi({ description: 'The path before a rename' }),
    additions: z.number().int().nullable().openapi({ description: 'null for a binary file' }),
    deletions: z.number().int().nullable().openapi({ description: 'null for a binary file' }),
  })
  .openapi('CommitDiffFile');

export const CommitDiffSchema = z
  .object({
    sha: z.string(),
    parents: z.array(z.string()),
    author: z.string(),
    date: z.string(),
    subject: z.string(),
    body: z.string(),
    files: z.array(CommitDiffFileSchema),
    files_truncated: z.boolean(),
    patch: z
      .string()
      .openapi({ description: 'The unified diff against the first parent, cut at a line end' }),
    truncated: z.boolean().openapi({
      description: 'true when the diff was longer than max_bytes: patch is its beginning',
    }),
    max_bytes: z.number().int(),
  })
  .openapi('CommitDiff');
