/**
 * The agent kinds that can each have a model of their own (`FORJA_MODEL_<KIND>`), by the slug their calls
 * are metered under: the roster's agents, every `dev:<module>` as `dev`, and the ContextManager's summaries.
 * `src/agents/roster.unit.test.ts` checks that every roster slug has its kind here.
 */
export const AGENT_MODEL_KINDS = [
  'criativo',
  'po',
  'arquiteto',
  'dev',
  'context-manager',
  'psicologo',
  'anamnese',
] as const;

export type AgentModelKind = (typeof AGENT_MODEL_KINDS)[number];

/** The variable naming the default model, which every agent without its own setting uses. */
export const DEFAULT_MODEL_VARIABLE = 'FORJA_MODEL';

/** The kind an agent's calls belong to (`dev:billing` → `dev`), or null for an agent outside the list. */
export function agentModelKind(agent: string): AgentModelKind | null {
  const family = agent.split(':')[0] ?? agent;
  return (AGENT_MODEL_KINDS as readonly string[]).includes(family)
    ? (family as AgentModelKind)
    : null;
}

/** `FORJA_MODEL_<KIND>`: `context-manager` → `FORJA_MODEL_CONTEXT_MANAGER`. */
export function agentModelVariable(kind: AgentModelKind): string {
  return `${DEFAULT_MODEL_VARIABLE}_${kind.toUpperCase().replace(/-/g, '_')}`;
}

/** The variables of one kind's own endpoint, beside `FORJA_MODEL_<KIND>`. */
export function agentEndpointVariables(kind: AgentModelKind): {
  model: string;
  baseUrl: string;
  apiKey: string;
} {
  const model = agentModelVariable(kind);
  return { model, baseUrl: `${model}_BASE_URL`, apiKey: `${model}_API_KEY` };
}
