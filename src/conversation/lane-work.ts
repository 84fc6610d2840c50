import {
  turnInProgress,
  type ConversationState,
  type SessionEvent,
  waitingQuestions,
} from '../domain/conversation/index.ts';
import { dependencyTurnsOwed, viewChangeTurnsOwed } from '../agents/index.ts';
import { rejectionTurnsOwed } from '../domain/handoffs/index.ts';
import { pendingKickoffs, unansweredMessage } from './pending-kickoffs.ts';

/** What a lane owes, read from the log alone: what a process that takes the lane over does (ADR 0170). */
export type LaneWork =
  /** A turn in progress that is not waiting for the person: its loop goes on from the log. */
  | { kind: 'continue' }
  /** A consolidation turn left open: one model call decides the brief, so it is closed, not guessed. */
  | { kind: 'close_interrupted'; turn_id: string }
  /** An idle lane with a message to answer, a kickoff to run, a rejected handoff or a changed view to hear of: a new turn. */
  | { kind: 'start' }
  | null;

export function pendingLaneWork(
  state: ConversationState,
  events: readonly SessionEvent[],
  agent: string,
  hasRuntime: (slug: string) => boolean,
): LaneWork {
  const turn = turnInProgress(state, agent);
  if (turn !== null) {
    if (turn.kind === 'consolidation') return { kind: 'close_interrupted', turn_id: turn.turn_id };
    const awaitsPerson =
      state.pending_actions.some(
        (action) => action.agent === agent && action.status === 'proposed',
      ) || waitingQuestions(state, agent).length > 0;
    return awaitsPerson ? null : { kind: 'continue' };
  }
  if (unansweredMessage(state, events, agent)) return { kind: 'start' };
  if (pendingKickoffs(state, events, hasRuntime).includes(agent)) return { kind: 'start' };
  // A handoff the agent sent was rejected after its last turn started: its next turn carries the reason (ADR 0160).
  if (hasRuntime(agent) && rejectionTurnsOwed(events).includes(agent)) return { kind: 'start' };
  // The Arquiteto changed what the dev's work rests on after its last turn started: it is told what (ADR 0340).
  // A dependency's code was merged into the dev's branch after its last turn: it is told (ADR 0343).
  if (!agent.startsWith('dev:') || !hasRuntime(agent)) return null;
  if (viewChangeTurnsOwed(events).includes(agent)) return { kind: 'start' };
  if (dependencyTurnsOwed(events).includes(agent)) return { kind: 'start' };
  return null;
}
