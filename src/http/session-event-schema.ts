import { z } from '@hono/zod-openapi';
import { architectureArtifacts } from '../domain/architecture/index.ts';
import {
  CORE_ARTIFACT_DEFINITIONS,
  StoredArtifactPayloadSchema,
  artifactEventType,
} from '../domain/artifacts/index.ts';
import { SESSION_EVENT_DEFINITIONS } from '../domain/contract/index.ts';
import type { SessionEvent } from '../domain/conversation/index.ts';
import { HANDOFF_STATUSES, HandoffPayloadSchema } from '../domain/handoffs/index.ts';

/**
 * A stored session event as the API sends it, published as the discriminated union on `type` the domain
 * declares (ADR 0400, ADR 0423): one variant per `defineEvent` kind with that kind's payload schema, one for the
 * `handoff.<status>` events and one for the `artifact.<type>` events, whose envelope's `data` stays open (its
 * shape is its artifact type's). An object payload is closed (no field the schema does not name), so the test
 * that parses every event of a played session fails on a payload field the document does not give.
 *
 * Its TypeScript type on the server stays the store's row (`payload: unknown`): the routes hand the log's
 * events over as read; the union is what the document (and so the web's generated types) says of them.
 */
const fields = {
  id: z.uuid(),
  session_id: z.uuid(),
  seq: z.number().int(),
  actor: z.string().openapi({ description: '`user`, `system`, or an agent slug' }),
  created_at: z.string(),
};

/** `schema` with no field it does not name, when it is a plain object schema (a domain schema is often open). */
function closed(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodObject && schema.def.catchall === undefined
    ? z.strictObject(schema.shape)
    : schema;
}

const variant = (type: z.ZodType, payload: z.ZodType) =>
  z.strictObject({ ...fields, type, payload: closed(payload) });

/** The `artifact.<type>` wire names the server writes: the core artifacts and the Arquiteto's. */
export const ARTIFACT_EVENT_TYPES = [...CORE_ARTIFACT_DEFINITIONS, ...architectureArtifacts].map(
  (definition) => artifactEventType(definition.type),
);

// A tuple of object schemas, each with a distinct `type`: what `discriminatedUnion` takes (built from a record,
// so its TypeScript type is only an array).
const variants = [
  ...Object.values(SESSION_EVENT_DEFINITIONS).map(
    (definition: { type: string; schema: z.ZodType }) =>
      variant(z.literal(definition.type), definition.schema),
  ),
  variant(z.enum(HANDOFF_STATUSES.map((status) => `handoff.${status}`)), HandoffPayloadSchema),
  variant(z.enum(ARTIFACT_EVENT_TYPES), StoredArtifactPayloadSchema),
] as unknown as [z.ZodObject, ...z.ZodObject[]];

export const SessionEventSchema = (
  z.discriminatedUnion('type', variants) as unknown as z.ZodType<SessionEvent>
).openapi('SessionEvent');
