import type { Handoff } from '../handoffs/handoff.ts';
import { TERMINAL_HANDOFF_STATUSES } from '../handoffs/handoff.ts';
import type { ActiveAgent, ConversationState } from './conversation-state.ts';

/** The activation of `agent` in this session, if it is active. */
export function activeAgent(state: ConversationState, agent: string): ActiveAgent | undefined {
  return state.active_agents.find((active) => active.agent === agent);
}

/** Handoffs still waiting for something: `offered` (for the person) or `accepted` (for the receiving agent). */
export function openHandoffs(state: ConversationState): readonly Handoff[] {
  return state.handoffs.filter((handoff) => !TERMINAL_HANDOFF_STATUSES.has(handoff.status));
}
