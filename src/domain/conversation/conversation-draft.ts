import type { ConversationState } from './conversation-state.ts';

/** `ConversationState` with writable fields and arrays: what the fold mutates while it owns it. */
export type ConversationDraft = {
  -readonly [Key in keyof ConversationState]: ConversationState[Key] extends readonly (infer Item)[]
    ? Item[]
    : ConversationState[Key];
};

/**
 * A private copy of `state` the fold may mutate. Arrays are copied; their entries are shared because the
 * fold only ever replaces entries, never changes one. Copying once per fold (not once per event) is what
 * keeps a 10,000-event rehydration linear instead of quadratic.
 */
export function draftOf(state: ConversationState): ConversationDraft {
  return {
    ...state,
    active_agents: [...state.active_agents],
    history: [...state.history],
    business_rules: [...state.business_rules],
    superseded_rules: [...state.superseded_rules],
    product_briefs: [...state.product_briefs],
    artifacts: [...state.artifacts],
    handoffs: [...state.handoffs],
    pending_actions: [...state.pending_actions],
    questions: [...state.questions],
    decisions: [...state.decisions],
    turns_in_progress: [...state.turns_in_progress],
    lane_ends: [...state.lane_ends],
    skipped: [...state.skipped],
  };
}
