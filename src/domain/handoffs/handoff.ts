import { z } from 'zod';

/** Every status of a handoff (record ADR 0008): `offered → accepted → completed`, or `offered → rejected`. */
export const HANDOFF_STATUSES = ['offered', 'accepted', 'completed', 'rejected'] as const;

export type HandoffStatus = (typeof HANDOFF_STATUSES)[number];

/** Statuses nothing can leave. */
export const TERMINAL_HANDOFF_STATUSES: ReadonlySet<HandoffStatus> = new Set([
  'completed',
  'rejected',
]);

/**
 * A handoff: one row of the `handoffs` table, and also what the `handoff.<status>` events say.
 * `artifact_id` is the event id of the artifact handed over (the product brief for Criativo → PO).
 */
export type Handoff = {
  readonly id: string;
  readonly session_id: string;
  readonly from_agent: string;
  readonly to_agent: string;
  readonly artifact_id: string | null;
  readonly status: HandoffStatus;
};

/**
 * An agent slug as the roster spells it: `criativo`, `po`, `arquiteto`, or a per-module dev
 * agent such as `dev:billing`. Lowercase so `PO` and `po` can never be two agents.
 */
export const AGENT_SLUG_PATTERN = /^[a-z][a-z0-9_:-]{0,63}$/;

export const AgentSlugSchema = z
  .string({ error: 'must be a string' })
  .regex(AGENT_SLUG_PATTERN, `must be an agent slug (${AGENT_SLUG_PATTERN.source})`);
