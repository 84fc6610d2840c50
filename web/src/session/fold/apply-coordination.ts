import type { StoredEvent } from '../../api/types.ts';
import { takeUnlistedDecisions } from './apply-questions.ts';
import { fields, list, optionalText, text } from './read.ts';
import type { ActionRisk, ActionView } from './session-view.ts';
import type { SessionDraft } from './session-draft.ts';

export const HANDOFF_PREFIX = 'handoff.';

/** Folds handoff transitions (the divider is placed where the handoff was first offered) and proposed actions. */
export function applyCoordination(draft: SessionDraft, event: StoredEvent): void {
  const payload = fields(event.payload);
  if (event.type.startsWith(HANDOFF_PREFIX)) {
    const id = optionalText(payload['handoff_id']);
    if (id === null) return;
    const known = draft.handoffs[id];
    const status = text(payload['status'], event.type.slice(HANDOFF_PREFIX.length));
    draft.handoffs[id] = {
      id,
      from: text(payload['from_agent'], known?.from ?? ''),
      to: text(payload['to_agent'], known?.to ?? ''),
      status,
      reason: optionalText(payload['reason']) ?? known?.reason ?? null,
      offeredSeq: known?.offeredSeq ?? event.seq,
      artifactId: optionalText(payload['artifact_id']) ?? known?.artifactId ?? null,
      decisions:
        known?.decisions ??
        (status === 'offered' ? takeUnlistedDecisions(draft, text(payload['from_agent'])) : []),
    };
    if (known === undefined) draft.chat.push({ kind: 'handoff', seq: event.seq, handoffId: id });
    if (status === 'completed') draft.completedHandoffs.add(draft.handoffs[id].to);
    return;
  }
  const actionId = optionalText(payload['action_id']);
  if (actionId === null) return;
  if (event.type === 'action.proposed') {
    const agent = text(payload['agent'], event.actor);
    const tool = text(payload['tool']);
    const action: ActionView = {
      id: actionId,
      seq: event.seq,
      agent,
      tool,
      args: payload['args'],
      status: 'proposed',
      toolCallId: optionalText(payload['tool_call_id']),
      risk: readRisk(payload['risk']),
      decision: null,
    };
    draft.actions.set(actionId, action);
    draft.chat.push({ kind: 'action', seq: event.seq, actionId, agent, tool, action });
    for (const turn of draft.openTurns.values()) if (turn.agent === agent) turn.paused = true;
    return;
  }
  const action = draft.actions.get(actionId);
  if (action === undefined) return;
  action.status = event.type === 'action.approved' ? 'approved' : 'denied';
  action.decision = {
    verdict: action.status,
    by: event.actor,
    reason: optionalText(payload['reason']),
  };
  for (const turn of draft.openTurns.values()) if (turn.agent === action.agent) turn.paused = false;
}

/** `action.proposed`'s `risk` (ADR 0190), read defensively: reasons without a why are dropped. */
function readRisk(value: unknown): ActionRisk | null {
  const risk = fields(value);
  if (typeof risk['risky'] !== 'boolean') return null;
  const reasons = list(risk['reasons'])
    .map(fields)
    .map((reason) => ({ rule: text(reason['rule']), why: text(reason['why']) }))
    .filter((reason) => reason.why !== '');
  return { risky: risk['risky'], reasons };
}

export const isCoordinationEvent = (type: string) =>
  type.startsWith(HANDOFF_PREFIX) ||
  type === 'action.proposed' ||
  type === 'action.approved' ||
  type === 'action.denied';
