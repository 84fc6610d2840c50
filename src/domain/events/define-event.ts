import type { z } from 'zod';

/** The part of a stored event a reader needs to recognise and read it. */
export interface StoredEventLike {
  readonly type: string;
  readonly payload: unknown;
}

/** An event a use case wants appended: its wire name, who caused it and its versioned payload. */
export interface NewEvent<Type extends string = string, Payload = unknown> {
  readonly type: Type;
  readonly actor: string;
  readonly payload: Payload;
}

/**
 * One session event kind: its dotted wire name and the zod schema of its payload, with the constructor that
 * is the only way code outside `src/domain` writes it (a Biome rule, `lint/no-event-literal.grit`, refuses an
 * event written as an object literal) and the reader that narrows a stored event to it.
 */
export interface EventDefinition<Type extends string, Schema extends z.ZodType> {
  readonly type: Type;
  readonly schema: Schema;
  /** The event to append. The payload is typed by the schema, so a missing or misspelt field fails `tsc`. */
  create(actor: string, payload: z.input<Schema>): NewEvent<Type, z.input<Schema>>;
  /** Whether `event` is of this kind (by name only; its payload may still fail to parse). */
  is(event: StoredEventLike): boolean;
  /** The payload of `event` if it is of this kind and parses, otherwise `null`. */
  read(event: StoredEventLike): z.output<Schema> | null;
}

export function defineEvent<const Type extends string, Schema extends z.ZodType>(
  type: Type,
  schema: Schema,
): EventDefinition<Type, Schema> {
  return {
    type,
    schema,
    create: (actor, payload) => ({ type, actor, payload }),
    is: (event) => event.type === type,
    read: (event) => {
      if (event.type !== type) return null;
      const parsed = schema.safeParse(event.payload);
      return parsed.success ? parsed.data : null;
    },
  };
}

/** `{ 'chat.message': ChatMessagePayload, … }` from a record of definitions: the event map, derived. */
export type EventMap<Definitions extends Record<string, EventDefinition<string, z.ZodType>>> = {
  [Key in keyof Definitions as Definitions[Key]['type']]: z.output<Definitions[Key]['schema']>;
};
