import { z } from '@hono/zod-openapi';

/** Schemas shared by routes, which also feed the OpenAPI document. */
export const ErrorSchema = z
  .object({ error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }) })
  .openapi('Error');

export const ProjectSchema = z.object({ id: z.uuid(), name: z.string(), created_at: z.string() }).openapi('Project');

export const SessionSchema = z
  .object({ id: z.uuid(), project_id: z.uuid(), title: z.string().nullable(), last_seq: z.number().int(), created_at: z.string() })
  .openapi('Session');

export const SessionEventSchema = z
  .object({ id: z.uuid(), session_id: z.uuid(), seq: z.number().int(), type: z.string(), actor: z.string(), payload: z.unknown(), created_at: z.string() })
  .openapi('SessionEvent');

export const idParameter = (name: string) =>
  z.uuid({ error: `must be a UUID` }).openapi({ param: { name, in: 'path' }, example: '0193b7a4-8a5e-7cc1-9d8a-2b1f3c4d5e6f' });

export function errorResponses(...statuses: Array<400 | 404 | 409 | 413 | 415 | 503>) {
  const descriptions = { 400: 'Invalid request', 404: 'Not found', 409: 'Conflict', 413: 'Body too large', 415: 'Not JSON', 503: 'Unavailable' };
  return Object.fromEntries(
    statuses.map((status) => [status, { description: descriptions[status], content: { 'application/json': { schema: ErrorSchema } } }]),
  ) as Record<(typeof statuses)[number], { description: string; content: { 'application/json': { schema: typeof ErrorSchema } } }>;
}

export const jsonBody = <Schema extends z.ZodType>(schema: Schema) => ({ required: true, content: { 'application/json': { schema } } });
export const jsonContent = <Schema extends z.ZodType>(schema: Schema, description: string) => ({ description, content: { 'application/json': { schema } } });
