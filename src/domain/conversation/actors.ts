/** The `actor` of events the person causes (a message, readiness, accepting a handoff, approving an action). */
export const PERSON_ACTOR = 'user';

/** The `actor` of events the server causes on its own. */
export const SYSTEM_ACTOR = 'system';
