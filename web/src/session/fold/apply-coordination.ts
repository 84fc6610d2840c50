import { takeUnlistedDecisions } from './apply-questions.ts';
import {
  type FoldEvent,
  type FoldEventOf,
  HANDOFF_PREFIX,
  type HandoffEvent,
  isHandoffEvent,
} from './fold-event.ts';
import type { ActionView } from './session-view.ts';
import type { SessionDraft } from './session-draft.ts';

export { HANDOFF_PREFIX };

/** Folds handoff transitions (the divider is placed where the handoff was first offered) and proposed actions. */
export function applyCoordination(draft: SessionDraft, event: FoldEvent): void {
  if (isHandoffEvent(event)) return applyHandoff(draft, event);
  switch (event.type) {
    case 'action.proposed':
      return applyProposed(draft, event);
    case 'action.approved':
    case 'action.denied': {
      const action = draft.actions.get(event.payload.action_id);
      if (action === undefined) return;
      action.status = event.type === 'action.approved' ? 'approved' : 'denied';
      action.decision = {
        verdict: action.status,
        by: event.actor,
        reason: event.payload.reason ?? null,
      };
      for (const turn of draft.openTurns.values())
        if (turn.agent === action.agent) turn.paused = false;
      return;
    }
  }
}

function applyHandoff(draft: SessionDraft, event: HandoffEvent): void {
  const { handoff_id: id, status, from_agent: from, to_agent: to } = event.payload;
  const known = draft.handoffs[id];
  draft.handoffs[id] = {
    id,
    from,
    to,
    status,
    reason: event.payload.reason ?? known?.reason ?? null,
    offeredSeq: known?.offeredSeq ?? event.seq,
    artifactId: event.payload.artifact_id ?? known?.artifactId ?? null,
    decisions: known?.decisions ?? (status === 'offered' ? takeUnlistedDecisions(draft, from) : []),
  };
  if (known === undefined) draft.chat.push({ kind: 'handoff', seq: event.seq, handoffId: id });
  if (status === 'completed') draft.completedHandoffs.add(to);
}

function applyProposed(draft: SessionDraft, event: FoldEventOf<'action.proposed'>): void {
  const { action_id: actionId, agent, tool, args, risk } = event.payload;
  const action: ActionView = {
    id: actionId,
    seq: event.seq,
    agent,
    tool,
    args,
    status: 'proposed',
    toolCallId: event.payload.tool_call_id ?? null,
    // `action.proposed`'s `risk` (ADR 0190).
    risk: risk === undefined ? null : { risky: risk.risky, reasons: [...risk.reasons] },
    decision: null,
  };
  draft.actions.set(actionId, action);
  draft.chat.push({ kind: 'action', seq: event.seq, actionId, agent, tool, action });
  for (const turn of draft.openTurns.values()) if (turn.agent === agent) turn.paused = true;
}

export const isCoordinationEvent = (type: string) =>
  type.startsWith(HANDOFF_PREFIX) ||
  type === 'action.proposed' ||
  type === 'action.approved' ||
  type === 'action.denied';
