import {
  turnInProgress,
  type ConversationState,
  type SessionEvent,
  waitingQuestions,
} from '../domain/conversation/index.ts';
import { owedBy } from './owed-turns.ts';

/** What a lane owes, read from the log alone: what a process that takes the lane over does (ADR 0170). */
export type LaneWork =
  /** A turn in progress that is not waiting for the person: its loop goes on from the log. */
  | { kind: 'continue' }
  /** A consolidation turn left open: one model call decides the brief, so it is closed, not guessed. */
  | { kind: 'close_interrupted'; turn_id: string }
  /** An idle lane that owes a turn (`owedTurns`: a message, a kickoff, a rejection, an unblock, a block, a failed merge, a changed view, a dependency merged). */
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
  return owedBy(state, events, agent, hasRuntime).length > 0 ? { kind: 'start' } : null;
}
