/** The `actor` of events the person causes (a message, readiness, accepting a handoff, approving an action). */
export const PERSON_ACTOR = 'user';

const PERSON_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Whether an actor is a person: `user` when Forja runs without accounts, else the signed-in person's id (a
 * UUID). Agents are slugs and the server is `system`, never a UUID.
 */
export function isPersonActor(actor: string): boolean {
  return actor === PERSON_ACTOR || PERSON_ID.test(actor);
}

/** The `actor` of events the server causes on its own. */
export const SYSTEM_ACTOR = 'system';
