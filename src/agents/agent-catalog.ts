import type { AgentCatalog } from '../conversation/agent-catalog.ts';
import { criativoAgent } from './criativo/criativo-agent.ts';
import type { PromptSources } from './runtime/build-system-prompt.ts';
import type { LoopAgent } from './runtime/tool-loop.ts';

export interface AgentCatalogSources {
  prompts: PromptSources;
  extraAgents?: readonly LoopAgent[];
  /** Agents made on demand for slugs not listed, e.g. the dev agent of a module (`dev:<module>`). */
  agentsOnDemand?: (slug: string) => LoopAgent | null;
}

/** The agents this build of Forja runs. An agent of the roster not listed here cannot take turns yet. */
export function createAgentCatalog(sources: AgentCatalogSources): AgentCatalog {
  const agents = new Map<string, LoopAgent>([['criativo', criativoAgent(sources.prompts)]]);
  for (const agent of sources.extraAgents ?? []) agents.set(agent.slug, agent);
  const conversational = new Set([
    'criativo',
    ...(sources.extraAgents ?? []).map((agent) => agent.slug),
  ]);
  return {
    get: (slug) => agents.get(slug) ?? sources.agentsOnDemand?.(slug) ?? null,
    isConversational: (slug) =>
      (conversational.has(slug) && agents.has(slug)) ||
      (sources.agentsOnDemand?.(slug) ?? null) !== null,
  };
}
