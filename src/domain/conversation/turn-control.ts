import { PERSON_ACTOR } from './actors.ts';
import type { CommandOf } from './commands.ts';
import { activeAgent, turnInProgress } from './conversation-queries.ts';
import type { ConversationState, LaneEnd, TurnInProgress } from './conversation-state.ts';
import { accept, type Decision } from './decision.ts';
import { EVENT_TYPES } from './event-types.ts';
import {
  type LaneEndFacts,
  type LaneEndRule,
  regenerateRefusal,
  retryRefusal,
} from './lane-end-rules.ts';
import { SESSION_EVENTS } from './session-events.ts';

/**
 * The person's control over turns (ADR 0220): Stop a running turn, Retry a failed one, Regenerate the lane's
 * last answer. Each rule names itself (`rule`, the 409's code) and says why in a sentence.
 */
export type TurnControlRule =
  | 'turn_not_running'
  | 'turn_awaits_approval'
  | 'turn_awaits_answer'
  | 'consolidation_turn'
  | 'not_last_turn'
  | 'turn_not_failed'
  | 'lane_busy'
  | 'agent_not_active'
  | 'answer_used_tools'
  | 'no_answer'
  | 'person_wrote_after';

export type TurnControlCheck<Turn> =
  | { readonly ok: true; readonly turn: Turn }
  | { readonly ok: false; readonly rule: TurnControlRule; readonly reason: string };

const no = (rule: TurnControlRule, reason: string) => ({ ok: false as const, rule, reason });

/** The turn `turnId` as the state knows it: running, or the last ended turn of its lane; null otherwise. */
export function knownTurn(
  state: ConversationState,
  turnId: string,
): { running: TurnInProgress } | { ended: LaneEnd } | null {
  const running = state.turns_in_progress.find((turn) => turn.turn_id === turnId);
  if (running !== undefined) return { running };
  const ended = state.lane_ends.find((end) => end.turn_id === turnId);
  return ended === undefined ? null : { ended };
}

/** Stop: the turn runs now, is not waiting for the person's approval, and is not a consolidation. */
export function canStop(
  state: ConversationState,
  turnId: string,
): TurnControlCheck<TurnInProgress> {
  const running = state.turns_in_progress.find((turn) => turn.turn_id === turnId);
  if (running === undefined)
    return no('turn_not_running', `turn ${turnId} is not running; only a running turn is stopped`);
  if (running.kind === 'consolidation')
    return no('consolidation_turn', 'the brief being consolidated is not stopped midway');
  const awaiting = state.pending_actions.find(
    (action) => action.turn_id === turnId && action.status === 'proposed',
  );
  if (awaiting !== undefined)
    return no(
      'turn_awaits_approval',
      `turn ${turnId} is waiting for your answer to action ${awaiting.action_id}; deny it instead of stopping`,
    );
  const asked = state.questions.find(
    (question) => question.turn_id === turnId && question.status === 'asked',
  );
  if (asked !== undefined)
    return no(
      'turn_awaits_answer',
      `turn ${turnId} is waiting for your answer to question ${asked.question_id}; answer it (or let the agent decide) instead of stopping`,
    );
  return { ok: true, turn: running };
}

/** The lane's last turn `turnId`, ended (not running): what Retry and Regenerate are asked of. */
function lastEndedTurn(state: ConversationState, turnId: string): TurnControlCheck<LaneEnd> {
  const running = state.turns_in_progress.find((turn) => turn.turn_id === turnId);
  if (running !== undefined)
    return no('lane_busy', `turn ${turnId} is still running; stop it first`);
  const end = state.lane_ends.find((candidate) => candidate.turn_id === turnId);
  if (end === undefined)
    return no('not_last_turn', `turn ${turnId} is not the last turn of its agent's lane`);
  return { ok: true, turn: end };
}

/** What the shared rule reads of the lane end `end` in the server's state. */
function laneEndFacts(state: ConversationState, end: LaneEnd): LaneEndFacts {
  return {
    kind: end.kind,
    outcome: end.outcome,
    hasAnswer: end.answer_event_id !== null,
    usedTools: end.used_tools,
    laneBusy: turnInProgress(state, end.agent) !== null,
    agentActive: activeAgent(state, end.agent) !== undefined,
    personWroteAfter: state.history.some(
      (entry) => entry.role === 'user' && entry.to === end.agent && entry.seq > end.ended_seq,
    ),
  };
}

/** The sentence a refusal of the shared rule gives for turn `turnId`, naming what stands in the way. */
function laneEndReason(state: ConversationState, rule: LaneEndRule, end: LaneEnd): string {
  const turnId = end.turn_id;
  const outcome = end.outcome.replace('_', ' ');
  switch (rule) {
    case 'lane_busy':
      return `turn ${turnInProgress(state, end.agent)?.turn_id} of ${end.agent} is running; wait for it to end`;
    case 'agent_not_active':
      return `agent ${end.agent} is not active in this session`;
    case 'consolidation_turn':
      return 'a consolidation is run again by confirming readiness, not by retrying its turn';
    case 'turn_not_failed':
      return `turn ${turnId} ended ${outcome}, not failed; only a failed turn is retried`;
    case 'no_answer':
      return `turn ${turnId} ended ${outcome} with no answer to regenerate`;
    case 'answer_used_tools':
      return `turn ${turnId} called tools; what they did stays, so its answer is not regenerated`;
    case 'person_wrote_after':
      return `you wrote to ${end.agent} after turn ${turnId}; only the last answer is regenerated`;
  }
}

function judged(
  state: ConversationState,
  turnId: string,
  rule: (facts: LaneEndFacts) => LaneEndRule | null,
): TurnControlCheck<LaneEnd> {
  const last = lastEndedTurn(state, turnId);
  if (!last.ok) return last;
  const refusedBy = rule(laneEndFacts(state, last.turn));
  return refusedBy === null ? last : no(refusedBy, laneEndReason(state, refusedBy, last.turn));
}

/** Retry: the lane's last turn failed (the shared rule, `retryRefusal`). */
export function canRetry(state: ConversationState, turnId: string): TurnControlCheck<LaneEnd> {
  return judged(state, turnId, retryRefusal);
}

/** Regenerate: the lane's last answer, no tools called, nothing written since (`regenerateRefusal`). */
export function canRegenerate(state: ConversationState, turnId: string): TurnControlCheck<LaneEnd> {
  return judged(state, turnId, regenerateRefusal);
}

const refused = (check: { rule: TurnControlRule; reason: string }): Decision => ({
  ok: false,
  reason: `${check.rule}: ${check.reason}`,
});

export function decideStopTurn(command: CommandOf<'StopTurn'>, state: ConversationState): Decision {
  const check = canStop(state, command.turn_id);
  if (!check.ok) return refused(check);
  const by = command.actor ?? PERSON_ACTOR;
  return accept(
    SESSION_EVENTS.turnStopped.create(by, {
      v: 1,
      agent: check.turn.agent,
      turn_id: check.turn.turn_id,
      text: command.text,
      by,
    }),
  );
}

/** Stop, asked of the process that runs the turn: the same rule, recorded for it to act on. */
export function decideRequestStop(
  command: CommandOf<'RequestStop'>,
  state: ConversationState,
): Decision {
  const check = canStop(state, command.turn_id);
  if (!check.ok) return refused(check);
  const by = command.actor ?? PERSON_ACTOR;
  return accept(
    SESSION_EVENTS.turnStopRequested.create(by, {
      v: 1,
      agent: check.turn.agent,
      turn_id: check.turn.turn_id,
      by,
    }),
  );
}

/**
 * Who asked to stop the current attempt of turn `turnId` (since it started or was retried), read backwards from
 * the end of the log (so it costs the turn's length); null when nobody did.
 */
export function stopRequestedBy(
  events: readonly { type: string; payload: unknown }[],
  turnId: string,
): string | null {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index]!;
    const payload = event.payload as { turn_id?: unknown; by?: unknown } | null;
    if (payload?.turn_id !== turnId) continue;
    if (event.type === EVENT_TYPES.turnStopRequested)
      return typeof payload.by === 'string' ? payload.by : PERSON_ACTOR;
    // A request before the turn (re)started or last ended was for an attempt that is over.
    if (ATTEMPT_BOUNDARIES.has(event.type)) return null;
  }
  return null;
}

const ATTEMPT_BOUNDARIES: ReadonlySet<string> = new Set([
  EVENT_TYPES.turnStarted,
  EVENT_TYPES.turnRetried,
  EVENT_TYPES.turnFailed,
  EVENT_TYPES.turnStopped,
  EVENT_TYPES.toolLoopLimitReached,
]);

export function decideRetryTurn(
  command: CommandOf<'RetryTurn'>,
  state: ConversationState,
): Decision {
  const check = canRetry(state, command.turn_id);
  if (!check.ok) return refused(check);
  const by = command.actor ?? PERSON_ACTOR;
  return accept(
    SESSION_EVENTS.turnRetried.create(by, {
      v: 1,
      agent: check.turn.agent,
      turn_id: check.turn.turn_id,
      by,
    }),
  );
}

/** The old answer leaves the history and a new turn of the lane starts, in one append. */
export function decideRegenerateAnswer(
  command: CommandOf<'RegenerateAnswer'>,
  state: ConversationState,
): Decision {
  const check = canRegenerate(state, command.turn_id);
  if (!check.ok) return refused(check);
  if (command.new_turn_id.trim() === '')
    return { ok: false, reason: 'new_turn_id: must not be empty' };
  const { agent, turn_id, answer_event_id } = check.turn;
  const by = command.actor ?? PERSON_ACTOR;
  return accept(
    SESSION_EVENTS.answerSuperseded.create(by, {
      v: 1,
      agent,
      turn_id,
      event_id: answer_event_id!,
      by,
    }),
    SESSION_EVENTS.turnStarted.create(agent, {
      v: 1,
      agent,
      turn_id: command.new_turn_id,
      kind: 'message',
      regenerates: turn_id,
    }),
  );
}
