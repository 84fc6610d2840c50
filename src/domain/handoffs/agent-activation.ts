import type { Handoff } from './handoff.ts';

/** Agents a person starts directly, without a handoff (record ADR 0008): only Criativo. */
export const USER_STARTED_AGENTS: ReadonlySet<string> = new Set(['criativo']);

export type ActivationDecision =
  | { readonly allowed: true; readonly handoff?: Handoff }
  | { readonly allowed: false; readonly reason: string };

/**
 * The activation rule: an agent runs in a session only when an accepted handoff addresses it (`to_agent`);
 * the agents of `USER_STARTED_AGENTS` are the sole exception. When several accepted handoffs address the
 * agent, the first in the given order is returned as the one that activated it.
 *
 * @param handoffsOfSession every handoff of the session (other sessions' handoffs must not be passed).
 */
export function canActivate(
  agentSlug: string,
  handoffsOfSession: readonly Handoff[],
): ActivationDecision {
  if (USER_STARTED_AGENTS.has(agentSlug)) return { allowed: true };
  const addressed = handoffsOfSession.filter((handoff) => handoff.to_agent === agentSlug);
  const accepted = addressed.find((handoff) => handoff.status === 'accepted');
  if (accepted !== undefined) return { allowed: true, handoff: accepted };

  const rule = `only an accepted handoff addressed to it activates an agent (${[...USER_STARTED_AGENTS].join(', ')} excepted)`;
  if (addressed.length === 0) {
    return {
      allowed: false,
      reason: `agent ${agentSlug} has no handoff addressed to it in this session; ${rule}`,
    };
  }
  const statuses = addressed
    .map((handoff) => `handoff ${handoff.id} is ${handoff.status}`)
    .join(', ');
  return {
    allowed: false,
    reason: `agent ${agentSlug} has no accepted handoff in this session (${statuses}); ${rule}`,
  };
}
