import type { AgentDefinition } from './agent-definition.ts';
import { anamneseDefinition } from './anamnese/anamnese-definition.ts';
import { arquitetoDefinition } from './arquiteto/arquiteto-definition.ts';
import { criativoDefinition } from './criativo/criativo-definition.ts';
import { devDefinition } from './dev/dev-definition.ts';
import { poDefinition } from './po/po-definition.ts';
import { psicologoDefinition } from './psicologo/psicologo-definition.ts';

/**
 * The roster: every agent of Forja, in the line's order, the entry first. An agent is its folder's
 * `<slug>-definition.ts` plus its line here; the catalogue, the companions, the identities and the slugs the
 * API and the CLI accept all come from this list (`src/agents/roster.unit.test.ts` checks each definition).
 */
export const AGENT_ROSTER: readonly AgentDefinition[] = [
  criativoDefinition,
  poDefinition,
  arquitetoDefinition,
  devDefinition,
  psicologoDefinition,
  anamneseDefinition,
];

/** The roster's slugs, in order. */
export const AGENT_SLUGS: readonly string[] = AGENT_ROSTER.map((agent) => agent.slug);

/** True when `value` is a roster slug (a per-module agent's family, `dev`, included). */
export function isAgentSlug(value: string, roster = AGENT_ROSTER): boolean {
  return roster.some((agent) => agent.slug === value);
}

/** The definition of an agent, by slug or per-module slug (`dev:pedidos` → `dev`), or null. */
export function definitionOf(
  agent: string,
  roster: readonly AgentDefinition[] = AGENT_ROSTER,
): AgentDefinition | null {
  const family = agent.split(':')[0]!;
  return roster.find((definition) => definition.slug === family) ?? null;
}

/** The `identidade` line of an agent ('' for a slug outside the roster). */
export function identityFrom(roster: readonly AgentDefinition[]): (agent: string) => string {
  return (agent) => definitionOf(agent, roster)?.identity ?? '';
}
