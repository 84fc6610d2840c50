import { draftOf, type ConversationDraft } from './conversation-draft.ts';
import { initialState, type ConversationState } from './conversation-state.ts';
import { applyEvent } from './evolve.ts';
import type { SessionEvent } from './session-event.ts';

/**
 * Rebuilds a session's conversation state from its log: a left fold of `evolve` from `initialState()`.
 * Because it is a fold, `rehydrate(a ++ b)` equals `foldEvents(rehydrate(a), b)`: a runtime can rehydrate
 * once and keep folding new events as they are appended.
 */
export function rehydrate(events: readonly SessionEvent[]): ConversationState {
  return foldEvents(initialState(), events);
}

/**
 * Folds more events into an existing state (e.g. events appended since it was built); `state` itself is
 * not changed. Same result as `events.reduce(evolve, state)`, in linear time.
 */
export function foldEvents(
  state: ConversationState,
  events: readonly SessionEvent[],
): ConversationState {
  const draft = draftOf(state);
  for (const event of events) applyEvent(draft, event);
  return draft;
}

/**
 * Folds events into a draft the caller owns and keeps (a session view's own state), in place: no copy at
 * all, so folding what was appended costs only that, however long the session.
 */
export function foldEventsInto(draft: ConversationDraft, events: readonly SessionEvent[]): void {
  for (const event of events) applyEvent(draft, event);
}
