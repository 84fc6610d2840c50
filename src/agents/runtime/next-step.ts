import {
  isInLane,
  turnInProgress,
  type ConversationState,
  type LaneState,
  type PendingAction,
  type PersonQuestion,
  type RecordedToolCall,
} from '../../domain/conversation/index.ts';
import { firstAfter } from './first-after.ts';
import { endsWithoutModelCall } from './stop-rule.ts';

/**
 * What the tool loop does next, decided from the log alone (so a restarted process decides the same):
 * the loop is a `switch` over this value.
 */
export type NextStep =
  | { kind: 'done' }
  | { kind: 'call_model'; iteration: number }
  | { kind: 'complete'; answer: { event_id: string; text: string } }
  | { kind: 'run_tool'; call: RecordedToolCall; approvedAction: PendingAction | null }
  | { kind: 'propose'; call: RecordedToolCall }
  | { kind: 'ask_person'; call: RecordedToolCall }
  | { kind: 'await_approval'; actions: PendingAction[]; questions: PersonQuestion[] }
  | { kind: 'limit_reached'; iterations: number };

export interface NextStepInput {
  agent: string;
  maxIterations: number;
  /** Whether a call waits for the person's approval (a `proposed` tool's, unless its rule says not this one). */
  needsApproval: (call: RecordedToolCall) => boolean;
  /** Names of this agent's tools that ask the person (`ask_person`): the call waits for the answer. */
  questionTools?: ReadonlySet<string>;
  /** Names of this agent's tools that only record something: the stop rule (ADR 0380) ends the turn after them. */
  recordTools?: ReadonlySet<string>;
}

/** Decides the next step of the turn in progress in `input.agent`'s lane. Pure; other lanes do not count. */
export function nextStep(state: ConversationState, input: NextStepInput): NextStep {
  const turn = turnInProgress(state, input.agent);
  if (turn === null) return { kind: 'done' };
  // Only the turn's own entries matter: the history after its start, found by binary search, so a step costs the
  // turn's length, not the session's (a step runs several times per turn, at any length of the log).
  const tail = state.history.slice(firstAfter(state.history, turn.seq));
  return nextLaneStep(
    {
      agent: input.agent,
      turn_in_progress: turn,
      history: tail.filter((entry) => isInLane(entry, input.agent)),
      pending_actions: state.pending_actions.filter((action) => action.agent === input.agent),
      questions: state.questions.filter((question) => question.agent === input.agent),
    },
    input,
  );
}

/** `nextStep` over one lane alone: what the lane's own events say, whatever other lanes did in between. */
export function nextLaneStep(lane: LaneState, input: NextStepInput): NextStep {
  const turn = lane.turn_in_progress;
  if (turn === null) return { kind: 'done' };
  const since = lane.history.filter((entry) => entry.seq > turn.seq);
  const responses = since.filter((entry) => entry.role === 'assistant');
  const last = responses.at(-1);
  const calls = last?.role === 'assistant' ? (last.tool_calls ?? []) : [];
  const completed = new Set(
    since.flatMap((entry) => (entry.role === 'tool' ? [entry.tool_call_id] : [])),
  );
  const awaiting: PendingAction[] = [];
  const waiting: PersonQuestion[] = [];
  for (const call of calls) {
    if (completed.has(call.id)) continue;
    if (input.questionTools?.has(call.name) === true) {
      const question = lane.questions.find((asked) => asked.tool_call_id === call.id);
      if (question === undefined) return { kind: 'ask_person', call };
      if (question.status === 'answered') return { kind: 'run_tool', call, approvedAction: null };
      waiting.push(question);
      continue;
    }
    const action = lane.pending_actions.find((pending) => pending.tool_call_id === call.id) ?? null;
    // A call Forja refused is answered at once: there is nothing for the person to approve.
    if (!input.needsApproval(call) || call.refused !== undefined)
      return { kind: 'run_tool', call, approvedAction: null };
    if (action === null) return { kind: 'propose', call };
    if (action.status === 'approved') return { kind: 'run_tool', call, approvedAction: action };
    awaiting.push(action);
  }
  if (awaiting.length + waiting.length > 0)
    return { kind: 'await_approval', actions: awaiting, questions: waiting };
  // The answer spoke and its calls only recorded something, all recorded: the turn ends on it (ADR 0380).
  if (
    last?.role === 'assistant' &&
    endsWithoutModelCall(
      { text: last.content, tool_calls: calls },
      toolResults(since),
      recordsOnly(input),
    )
  )
    return { kind: 'complete', answer: { event_id: last.event_id, text: last.content } };
  if (responses.length >= input.maxIterations)
    return { kind: 'limit_reached', iterations: responses.length };
  return { kind: 'call_model', iteration: responses.length + 1 };
}

function toolResults(entries: LaneState['history']): { tool_call_id: string; ok: boolean }[] {
  return entries.flatMap((entry) =>
    entry.role === 'tool' ? [{ tool_call_id: entry.tool_call_id, ok: entry.ok }] : [],
  );
}

function recordsOnly(input: NextStepInput): (tool: string) => boolean {
  const tools = input.recordTools;
  return (tool) => tools?.has(tool) === true;
}
