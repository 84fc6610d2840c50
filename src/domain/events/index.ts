export { defineEvent } from './define-event.ts';
export type { EventDefinition, EventMap, NewEvent, StoredEventLike } from './define-event.ts';
