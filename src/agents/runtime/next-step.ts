import type { ConversationState, PendingAction, RecordedToolCall } from '../../domain/conversation/index.ts';
import { firstAfter } from './first-after.ts';

/**
 * What the tool loop does next, decided from the log alone (so a restarted process decides the same):
 * the loop is a `switch` over this value.
 */
export type NextStep =
  | { kind: 'done' }
  | { kind: 'call_model'; iteration: number }
  | { kind: 'run_tool'; call: RecordedToolCall; approvedAction: PendingAction | null }
  | { kind: 'propose'; call: RecordedToolCall }
  | { kind: 'await_approval'; actions: PendingAction[] }
  | { kind: 'limit_reached'; iterations: number };

export interface NextStepInput {
  agent: string;
  maxIterations: number;
  /** Names of this agent's tools that wait for approval. */
  proposedTools: ReadonlySet<string>;
}

/** Decides the next step of the turn in progress for `agent`. Pure. */
export function nextStep(state: ConversationState, input: NextStepInput): NextStep {
  const turn = state.turn_in_progress;
  if (turn === null || turn.agent !== input.agent) return { kind: 'done' };
  // Only the turn's own entries matter: read the history from the turn's start, not from the beginning.
  const turnEntries = state.history.slice(firstAfter(state.history, turn.seq));
  const responses = turnEntries.filter((entry) => entry.role === 'assistant' && entry.agent === input.agent);
  const last = responses.at(-1);
  const calls = last?.role === 'assistant' ? (last.tool_calls ?? []) : [];
  const completed = new Set(turnEntries.flatMap((entry) => (entry.role === 'tool' ? [entry.tool_call_id] : [])));
  const awaiting: PendingAction[] = [];
  for (const call of calls) {
    if (completed.has(call.id)) continue;
    const action = state.pending_actions.find((pending) => pending.tool_call_id === call.id) ?? null;
    if (!input.proposedTools.has(call.name)) return { kind: 'run_tool', call, approvedAction: null };
    if (action === null) return { kind: 'propose', call };
    if (action.status === 'approved') return { kind: 'run_tool', call, approvedAction: action };
    awaiting.push(action);
  }
  if (awaiting.length > 0) return { kind: 'await_approval', actions: awaiting };
  if (responses.length >= input.maxIterations) return { kind: 'limit_reached', iterations: responses.length };
  return { kind: 'call_model', iteration: responses.length + 1 };
}
