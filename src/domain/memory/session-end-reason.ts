import { artifactEventType } from '../artifacts/artifact-payload.ts';
import { PRODUCT_BRIEF_TYPE } from '../artifacts/product-brief.ts';
import { EVENT_TYPES } from '../conversation/event-types.ts';
import type { SessionEvent } from '../conversation/session-event.ts';
import { handoffEventType } from '../handoffs/handoff-event.ts';

/** Why a session ended, as `session.ended` records it and the Psicólogo's trigger reads it (record ADR 0101). */
export const SESSION_END_REASONS = ['completed', 'abandoned', 'blocked', 'budget'] as const;

export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** Tools whose call means the agent declared itself stuck (the dev agent's `report_blocked`, record ADR 0200). */
export const BLOCKING_TOOLS: ReadonlySet<string> = new Set(['report_blocked']);

/**
 * Classifies how a session ended from its log. Rules, first match wins; "after" compares seqs:
 *
 * 1. `budget` — a `budget.exceeded` after the last `agent.response` (or with none): the model was refused
 *    and never answered again, so the session ended starved of budget.
 * 2. `blocked` — a blocking signal after the last completion signal (or with none). Blocking signals:
 *    `toolloop.limit_reached`, `action.denied`, a `tool.completed` of a `BLOCKING_TOOLS` tool.
 * 3. `completed` — a completion signal exists: `handoff.completed`, or `handoff.accepted` after an
 *    `artifact.product_brief` (the ideation reached the PO).
 * 4. `abandoned` — none of the above: the person left.
 *
 * Later signals overrule earlier ones on purpose: a denied action followed by a completed handoff was
 * resolved, while a completed handoff followed by a tool loop at its limit ended blocked.
 */
export function classifySessionEnd(events: readonly SessionEvent[]): SessionEndReason {
  const ordered = [...events].sort((left, right) => left.seq - right.seq);
  const lastResponse = lastSeq(ordered, (event) => event.type === EVENT_TYPES.agentResponse);
  const lastBudget = lastSeq(ordered, (event) => event.type === EVENT_TYPES.budgetExceeded);
  if (lastBudget > lastResponse) return 'budget';

  const firstBrief = ordered.find((event) => event.type === PRODUCT_BRIEF_EVENT)?.seq ?? Infinity;
  const lastCompletion = lastSeq(
    ordered,
    (event) =>
      event.type === HANDOFF_COMPLETED ||
      (event.type === HANDOFF_ACCEPTED && event.seq > firstBrief),
  );
  const lastBlock = lastSeq(ordered, isBlockingSignal);
  if (lastBlock > lastCompletion) return 'blocked';
  return lastCompletion > 0 ? 'completed' : 'abandoned';
}

const PRODUCT_BRIEF_EVENT = artifactEventType(PRODUCT_BRIEF_TYPE);
const HANDOFF_COMPLETED = handoffEventType('completed');
const HANDOFF_ACCEPTED = handoffEventType('accepted');

function isBlockingSignal(event: SessionEvent): boolean {
  if (event.type === EVENT_TYPES.toolLoopLimitReached || event.type === EVENT_TYPES.actionDenied)
    return true;
  if (event.type !== EVENT_TYPES.toolCompleted) return false;
  const tool = (event.payload as { tool?: unknown } | null)?.tool;
  return typeof tool === 'string' && BLOCKING_TOOLS.has(tool);
}

/** Seq of the last event matching, or 0 (seqs start at 1) when none does. */
function lastSeq(
  ordered: readonly SessionEvent[],
  matches: (event: SessionEvent) => boolean,
): number {
  for (let index = ordered.length - 1; index >= 0; index -= 1) {
    const event = ordered[index];
    if (event !== undefined && matches(event)) return event.seq;
  }
  return 0;
}
