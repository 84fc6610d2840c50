import { activeAgent, isInLane } from './conversation-queries.ts';
import type { ChatHistoryEntry, ConversationState } from './conversation-state.ts';

/**
 * What the person wrote, in `agent`'s lane, before the person started it (ADR 0190): its first turn
 * answers these at once instead of leaving them unanswered until the next message. Empty when the agent
 * came by a handoff (its kickoff has its own turn), is not active, or has already said anything.
 */
export function writtenBeforeStart(
  state: ConversationState,
  agent: string,
): Extract<ChatHistoryEntry, { role: 'user' }>[] {
  const active = activeAgent(state, agent);
  if (active === undefined || active.handoff_id !== null) return [];
  if (state.history.some((entry) => entry.role !== 'user' && entry.agent === agent)) return [];
  // A message written since the start has its own turn, which answers everything before it too.
  if (
    state.history.some(
      (entry) => entry.role === 'user' && entry.seq > active.seq && isInLane(entry, agent),
    )
  )
    return [];
  return state.history.filter(
    (entry): entry is Extract<ChatHistoryEntry, { role: 'user' }> =>
      entry.role === 'user' && entry.seq < active.seq && isInLane(entry, agent),
  );
}
