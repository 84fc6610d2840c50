import type { NewSessionEvent } from './session-event.ts';

/**
 * What `decide` returns: the events to append, or why the command is refused (a sentence a person or a
 * model can act on; HTTP 409 at the edge).
 */
export type Decision =
  | { readonly ok: true; readonly events: readonly NewSessionEvent[] }
  | { readonly ok: false; readonly reason: string; readonly code?: string };

export function accept(...events: NewSessionEvent[]): Decision {
  return { ok: true, events };
}

/** A refusal; `code` names the rule when the edge answers it apart from the others (e.g. `session_ended`). */
export function refuse(reason: string, code?: string): Decision {
  return code === undefined ? { ok: false, reason } : { ok: false, reason, code };
}
