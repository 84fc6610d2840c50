import {
  type LaneEndFacts,
  regenerateRefusal,
  retryRefusal,
} from '../../../../src/domain/contract/index.ts';
import type { FoldEvent } from './fold-event.ts';
import type { SessionDraft } from './session-draft.ts';

/** How a lane's last turn ended, as the server's rules read it (ADR 0220): what Retry and Regenerate act on. */
export type LaneEnd = {
  turnId: string;
  kind: string;
  outcome: 'answered' | 'failed' | 'stopped' | 'limit_reached';
  answerEventId: string | null;
  endedSeq: number;
  usedTools: boolean;
};

/**
 * Records how a running turn ended, as the server's fold does: only a turn that is open ends a lane (an answer
 * of a turn that never started, or ended already, changes nothing). Called before the turn leaves `openTurns`.
 */
export function endLane(
  draft: SessionDraft,
  _agent: string,
  turnId: string,
  outcome: LaneEnd['outcome'],
  event: { readonly id: string; readonly seq: number },
  answered: boolean,
): void {
  const open = draft.openTurns.get(turnId);
  if (open === undefined) return;
  draft.laneEnds.set(open.agent, {
    turnId,
    kind: open.kind,
    outcome,
    answerEventId: answered ? event.id : null,
    endedSeq: event.seq,
    usedTools: draft.toolTurns.has(turnId),
  });
}

/** Folds `turn.stopped`, `turn.retried` and `answer.superseded`. */
export function applyTurnControl(draft: SessionDraft, event: FoldEvent): void {
  switch (event.type) {
    case 'turn.stopped': {
      const { agent, turn_id: turnId, text: said } = event.payload;
      endLane(draft, agent, turnId, 'stopped', event, said.trim() !== '');
      draft.openTurns.delete(turnId);
      if (said.trim() !== '')
        draft.chat.push({
          kind: 'agent',
          seq: event.seq,
          agent,
          text: said,
          tools: [],
          turnId,
          eventId: event.id,
          stopped: true,
        });
      else draft.chat.push({ kind: 'stopped', seq: event.seq, agent });
      return;
    }
    case 'turn.retried': {
      const { agent, turn_id: turnId } = event.payload;
      const kind = draft.laneEnds.get(agent)?.kind ?? 'message';
      draft.openTurns.set(turnId, { turnId, agent, kind, paused: false });
      return;
    }
    case 'answer.superseded': {
      // The new answer takes its place; the old one stays in the log, not in the chat.
      const superseded = event.payload.event_id;
      draft.chat = draft.chat.filter(
        (item) => !(item.kind === 'agent' && item.eventId === superseded),
      );
      return;
    }
  }
}

export const TURN_CONTROL_EVENTS = new Set(['turn.stopped', 'turn.retried', 'answer.superseded']);

/** The turns the person may retry or regenerate now: the server's rule itself (`retryRefusal`, ADR 0220). */
export function turnControls(draft: SessionDraft): { retry: string[]; regenerate: string[] } {
  const retry: string[] = [];
  const regenerate: string[] = [];
  for (const [agent, end] of draft.laneEnds) {
    const facts: LaneEndFacts = {
      kind: end.kind,
      outcome: end.outcome,
      hasAnswer: end.answerEventId !== null,
      usedTools: end.usedTools,
      // The turn itself running again, or another turn of its lane.
      laneBusy:
        draft.openTurns.has(end.turnId) ||
        [...draft.openTurns.values()].some((turn) => turn.agent === agent),
      agentActive: draft.activeAgents.includes(agent),
      personWroteAfter: draft.chat.some(
        (item) => item.kind === 'user' && item.to === agent && item.seq > end.endedSeq,
      ),
    };
    if (retryRefusal(facts) === null) retry.push(end.turnId);
    if (regenerateRefusal(facts) === null) regenerate.push(end.turnId);
  }
  return { retry, regenerate };
}
