/**
 * One row of the append-only `session_events` log, as the store returns it.
 *
 * `seq` is the per-session order (1, 2, 3 …) assigned by the store at append time; `payload` is unknown until a
 * reader parses it with the schema of its `type` (every payload carries a schema version `v`, see `upcast.ts`).
 */
export type SessionEvent = {
  /** uuid of the event, e.g. the `artifact_id` a handoff points to. */
  readonly id: string;
  readonly session_id: string;
  readonly seq: number;
  /** Dotted wire name, e.g. `chat.message`, `handoff.accepted`, `artifact.business_rule`. */
  readonly type: string;
  /** Who caused it: `user`, `system`, or an agent slug such as `criativo`. */
  readonly actor: string;
  readonly payload: unknown;
  /** ISO-8601 timestamp assigned by the store. */
  readonly created_at: string;
};

/**
 * An event a decision wants appended. The store assigns `id`, `session_id`, `seq` and `created_at`, so the
 * rules never need a clock or an id generator.
 */
export type NewSessionEvent = {
  readonly type: string;
  readonly actor: string;
  readonly payload: { readonly v: number } & Record<string, unknown>;
};
