import { activeAgent, type ConversationState } from '../domain/conversation/index.ts';
import type { AgentCatalog } from '../agents/index.ts';

/**
 * The session's current addressee, for a message that names none: the agent the person last wrote to, unless
 * a conversational agent was activated after that message (the work moved on: talk to the newcomer), else the
 * most recently activated conversational agent. Null when no agent is active.
 */
export function respondingAgent(state: ConversationState, catalog: AgentCatalog): string | null {
  const activated = state.active_agents
    .filter((active) => catalog.isConversational(active.agent))
    .at(-1);
  const addressed = state.last_addressed;
  if (
    addressed !== null &&
    activeAgent(state, addressed.agent) !== undefined &&
    (activated === undefined || addressed.seq > activated.seq)
  )
    return addressed.agent;
  return activated?.agent ?? null;
}
