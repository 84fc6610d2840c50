import type { ConversationState } from '../domain/conversation/index.ts';
import type { AgentCatalog } from './agent-catalog.ts';

/** The agent the person is talking to: the most recently activated conversational agent, if any. */
export function respondingAgent(state: ConversationState, catalog: AgentCatalog): string | null {
  const candidates = state.active_agents.filter((active) => catalog.isConversational(active.agent));
  return candidates.at(-1)?.agent ?? null;
}
