// The conversation's public surface: what other folders may import (the rest is its own; .dependency-cruiser.cjs).
export type { Refusal } from './conversation-dependencies.ts';
export { createConversationService, type ConversationService } from './conversation-service.ts';
export { createSessionQueue } from './session-queue.ts';
export { createSessionViews } from './session-views.ts';
export { createTurnSlots } from './turn-slots.ts';
export { createTurnStops } from './turn-stops.ts';
