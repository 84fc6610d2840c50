import type { Handoff } from '../handoffs/handoff.ts';
import { TERMINAL_HANDOFF_STATUSES } from '../handoffs/handoff.ts';
import type {
  ActiveAgent,
  ChatHistoryEntry,
  ConversationState,
  PendingAction,
  TurnInProgress,
} from './conversation-state.ts';
import type { PersonQuestion } from './person-questions.ts';

/** The activation of `agent` in this session, if it is active. */
export function activeAgent(state: ConversationState, agent: string): ActiveAgent | undefined {
  return state.active_agents.find((active) => active.agent === agent);
}

/** Handoffs still waiting for something: `offered` (for the person) or `accepted` (for the receiving agent). */
export function openHandoffs(state: ConversationState): readonly Handoff[] {
  return state.handoffs.filter((handoff) => !TERMINAL_HANDOFF_STATUSES.has(handoff.status));
}

/** The turn in progress in `agent`'s lane, or null when the lane is idle. */
export function turnInProgress(state: ConversationState, agent: string): TurnInProgress | null {
  return state.turns_in_progress.find((turn) => turn.agent === agent) ?? null;
}

/** Whether `entry` belongs to `agent`'s lane: its own responses and tool results, and what the person wrote to it. */
export function isInLane(entry: ChatHistoryEntry, agent: string): boolean {
  return entry.role === 'user' ? entry.to === null || entry.to === agent : entry.agent === agent;
}

/** One agent's lane of the session: its turn in progress, its history and its actions waiting for the person. */
export type LaneState = {
  readonly agent: string;
  readonly turn_in_progress: TurnInProgress | null;
  readonly history: readonly ChatHistoryEntry[];
  readonly pending_actions: readonly PendingAction[];
  /** The lane's questions for the person (`ask_person`), waiting or answered. */
  readonly questions: readonly PersonQuestion[];
};

/** The lane of `agent`, as the fold of the whole session shows it. */
export function laneOf(state: ConversationState, agent: string): LaneState {
  return {
    agent,
    turn_in_progress: turnInProgress(state, agent),
    history: state.history.filter((entry) => isInLane(entry, agent)),
    pending_actions: state.pending_actions.filter((action) => action.agent === agent),
    questions: state.questions.filter((question) => question.agent === agent),
  };
}

/** The questions still waiting for the person, oldest first. */
export function waitingQuestions(state: ConversationState, agent?: string): PersonQuestion[] {
  return state.questions.filter(
    (question) => question.status === 'asked' && (agent === undefined || question.agent === agent),
  );
}
