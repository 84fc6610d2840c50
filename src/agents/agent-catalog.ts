import type { AgentDefinition, RosterDependencies } from './agent-definition.ts';
import type { LoopAgent } from './runtime/tool-loop.ts';

/** The agents this process can run, by slug (`criativo`, `po`, `dev:<module>` …). */
export interface AgentCatalog {
  get(slug: string): LoopAgent | null;
  /** The agents that answer the person's messages when they are the most recently activated one. */
  isConversational(slug: string): boolean;
}

export interface AgentCatalogSources {
  /** The roster (`AGENT_ROSTER`): its turn-taking agents are built from `dependencies`. */
  roster: readonly AgentDefinition[];
  dependencies: RosterDependencies;
  /** Agents outside the roster, for tests of other parts (the tool loop's `tester`). */
  extraAgents?: readonly LoopAgent[];
}

/** The agents this build of Forja runs: the roster's turn-taking agents, per-module ones made on demand. */
export function createAgentCatalog(sources: AgentCatalogSources): AgentCatalog {
  const agents = new Map<string, LoopAgent>();
  const onDemand: Array<(slug: string) => LoopAgent | null> = [];
  for (const definition of sources.roster) {
    if (definition.runs.kind === 'turns')
      agents.set(definition.slug, definition.runs.create(sources.dependencies));
    else if (definition.runs.kind === 'turns-per-module')
      onDemand.push(definition.runs.create(sources.dependencies));
  }
  for (const agent of sources.extraAgents ?? []) agents.set(agent.slug, agent);
  const made = (slug: string) => {
    for (const make of onDemand) {
      const agent = make(slug);
      if (agent !== null) return agent;
    }
    return null;
  };
  return {
    get: (slug) => agents.get(slug) ?? made(slug),
    isConversational: (slug) => agents.has(slug) || made(slug) !== null,
  };
}
