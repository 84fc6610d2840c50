import type { z } from 'zod';
import { StoredArtifactPayloadSchema } from '../artifacts/artifact-payload.ts';
import { SESSION_EVENTS } from '../conversation/session-events.ts';
import type { EventDefinition } from '../events/index.ts';
import { HANDOFF_STATUSES, type HandoffStatus } from '../handoffs/handoff.ts';
import { HandoffPayloadSchema } from '../handoffs/handoff-event.ts';
import { LINE_EVENTS } from '../line/line-events.ts';
import { MEMORY_EVENTS } from '../memory/memory-events.ts';

/**
 * Every session event kind the server declares with `defineEvent`, by wire name: the one registry both the
 * server's readers and the web UI's fold parse payloads with (ADR 0400).
 */
export const SESSION_EVENT_DEFINITIONS = {
  ...SESSION_EVENTS,
  ...LINE_EVENTS,
  ...MEMORY_EVENTS,
} as const;

type Definitions = typeof SESSION_EVENT_DEFINITIONS;
type Defined = Definitions[keyof Definitions];

/** Wire name → payload, for every kind declared with `defineEvent` and each `handoff.<status>`. */
export type SessionEventPayloads = {
  [Definition in Defined as Definition['type']]: z.output<Definition['schema']>;
} & {
  [Status in HandoffStatus as `handoff.${Status}`]: z.output<typeof HandoffPayloadSchema>;
};

/** The payload of every `artifact.<type>`: the envelope; `data` is read by the artifact's own reader. */
export type ArtifactEnvelope = z.output<typeof StoredArtifactPayloadSchema>;

/** The part of a stored event the contract does not type: its id, seq, actor, time … whatever `Row` carries. */
type Rest<Row> = Omit<Row, 'type' | 'payload'>;

/**
 * A stored event whose payload parsed with its kind's schema: a discriminated union on `type`, so
 * `switch (event.type)` narrows `event.payload` to that kind's payload. `Row` is the reader's own row type
 * (the store's `SessionEvent`, the web's `StoredEvent`).
 */
export type TypedSessionEvent<Row = Record<never, never>> =
  | {
      [Type in keyof SessionEventPayloads]: Rest<Row> & {
        readonly type: Type;
        readonly payload: SessionEventPayloads[Type];
      };
    }[keyof SessionEventPayloads]
  | (Rest<Row> & { readonly type: `artifact.${string}`; readonly payload: ArtifactEnvelope });

/** An `artifact.<type>` event: its envelope, whose `data` each artifact's reader reads. */
export type ArtifactEventOf<Row = Record<never, never>> = Extract<
  TypedSessionEvent<Row>,
  { readonly type: `artifact.${string}` }
>;

export function isArtifactEvent<Row>(event: TypedSessionEvent<Row>): event is ArtifactEventOf<Row> {
  return event.type.startsWith(ARTIFACT_PREFIX);
}

/** The typed event of one wire name. */
export type SessionEventOf<
  Type extends TypedSessionEvent['type'],
  Row = Record<never, never>,
> = Extract<TypedSessionEvent<Row>, { readonly type: Type }>;

/** What reading a stored event gives: the typed event, or why there is none. */
export type EventReading<Row> =
  | { readonly kind: 'typed'; readonly event: TypedSessionEvent<Row> }
  /** A wire name no definition declares (a newer server's event, say): readers skip it. */
  | { readonly kind: 'unknown' }
  /** A known wire name whose payload does not parse: readers count it, never guess its fields. */
  | { readonly kind: 'unreadable'; readonly issues: string };

const BY_TYPE: ReadonlyMap<string, z.ZodType> = new Map([
  ...Object.values(SESSION_EVENT_DEFINITIONS).map(
    (definition: EventDefinition<string, z.ZodType>) =>
      [definition.type, definition.schema] as const,
  ),
  ...HANDOFF_STATUSES.map((status) => [`handoff.${status}`, HandoffPayloadSchema] as const),
]);

const ARTIFACT_PREFIX = 'artifact.';

/** The schema a wire name's payload is read with, or `undefined` for a name nothing declares. */
export function payloadSchemaOf(type: string): z.ZodType | undefined {
  if (type.startsWith(ARTIFACT_PREFIX) && type.length > ARTIFACT_PREFIX.length)
    return StoredArtifactPayloadSchema;
  return BY_TYPE.get(type);
}

/**
 * Reads a stored event by the server's own event definitions: its payload parsed with its kind's schema.
 * Pure and total: an unknown kind or a payload that does not parse is a reading, never a throw.
 */
export function readSessionEvent<Row extends { readonly type: string; readonly payload?: unknown }>(
  row: Row,
): EventReading<Row> {
  const schema = payloadSchemaOf(row.type);
  if (schema === undefined) return { kind: 'unknown' };
  const parsed = schema.safeParse(row.payload);
  if (!parsed.success) return { kind: 'unreadable', issues: parsed.error.message };
  return { kind: 'typed', event: { ...row, payload: parsed.data } as TypedSessionEvent<Row> };
}

/** The typed event when `row` is of kind `type` and parses, otherwise `null`. */
export function readEventOf<
  Type extends keyof SessionEventPayloads,
  Row extends { readonly type: string; readonly payload?: unknown },
>(type: Type, row: Row): SessionEventOf<Type, Row> | null {
  if (row.type !== type) return null;
  const reading = readSessionEvent(row);
  return reading.kind === 'typed' ? (reading.event as SessionEventOf<Type, Row>) : null;
}
