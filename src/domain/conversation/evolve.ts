import { InvariantViolationError } from '../errors/invariant-violation-error.ts';
import { handoffFromEvent } from '../handoffs/handoff-event.ts';
import { draftOf, type ConversationDraft } from './conversation-draft.ts';
import type { ConversationState } from './conversation-state.ts';
import { applyArtifact } from './evolve-artifact.ts';
import { applyTurnControl, endTurn, TURN_CONTROL_TYPES } from './evolve-turn-control.ts';
import { ARTIFACT_EVENT_PREFIX, EVENT_TYPES, HANDOFF_EVENT_PREFIX } from './event-types.ts';
import {
  ActionProposedPayloadSchema,
  ActionResolvedPayloadSchema,
  AgentActivatedPayloadSchema,
  AgentResponsePayloadSchema,
  ChatMessagePayloadSchema,
  ReadinessConfirmedPayloadSchema,
  ToolCompletedPayloadSchema,
  ToolLoopLimitReachedPayloadSchema,
  TurnCompletedPayloadSchema,
  TurnFailedPayloadSchema,
  TurnStartedPayloadSchema,
} from './event-payloads.ts';
import { applyQuestion, QUESTION_TYPES } from './evolve-questions.ts';
import { CURRENT_PAYLOAD_VERSION, read, skip } from './read-payload.ts';
import type { SessionEvent } from './session-event.ts';
import { upcast, versionOf } from './upcast.ts';

/**
 * Folds one stored event into the state and returns the new state (the given one is not changed).
 * Upcasts first, so callers may pass events exactly as stored. Events of types the conversation does not
 * read only advance `last_seq`; events it reads but cannot parse land in `skipped` with the reason.
 * Throws `InvariantViolationError` for an event of another session or out of seq order: the fold is only
 * meaningful over one session's log in order.
 */
export function evolve(state: ConversationState, event: SessionEvent): ConversationState {
  const draft = draftOf(state);
  applyEvent(draft, event);
  return draft;
}

/** `evolve` on a draft the caller owns; the fold uses it to copy the state once, not once per event. */
export function applyEvent(draft: ConversationDraft, stored: SessionEvent): void {
  assertFollows(draft, stored);
  const event = upcast(stored);
  draft.session_id = event.session_id;
  draft.last_seq = event.seq;
  const version = versionOf(event.payload);
  if (isReadType(event.type) && version !== null && version > CURRENT_PAYLOAD_VERSION) {
    skip(
      draft,
      event,
      `payload version ${version} is newer than this reader (${CURRENT_PAYLOAD_VERSION})`,
    );
    return;
  }
  applyByType(draft, event);
}

function applyByType(draft: ConversationDraft, event: SessionEvent): void {
  const where = { seq: event.seq, event_id: event.id };
  switch (event.type) {
    case EVENT_TYPES.chatMessage:
      return read(draft, event, ChatMessagePayloadSchema, ({ text, to }) => {
        draft.history.push({ role: 'user', content: text, to: to ?? null, ...where });
        if (to !== undefined) draft.last_addressed = { agent: to, seq: event.seq };
      });
    case EVENT_TYPES.agentResponse:
      return read(
        draft,
        event,
        AgentResponsePayloadSchema,
        ({ agent, text, turn_id, tool_calls }) => {
          const calls = tool_calls ?? [];
          draft.history.push(
            calls.length > 0
              ? { role: 'assistant', agent, content: text, tool_calls: calls, ...where }
              : { role: 'assistant', agent, content: text, ...where },
          );
          // A final answer closes its agent's lane; without a turn id (older logs) it is the lane's turn.
          if (calls.length === 0)
            endTurn(
              draft,
              (turn) => turn.agent === agent && (turn_id === undefined || turn_id === turn.turn_id),
              { outcome: 'answered', answer_event_id: event.id, ended_seq: event.seq },
            );
        },
      );
    case EVENT_TYPES.agentActivated:
      return read(draft, event, AgentActivatedPayloadSchema, ({ agent, handoff_id }) => {
        if (!draft.active_agents.some((active) => active.agent === agent)) {
          draft.active_agents.push({ agent, handoff_id, seq: event.seq });
        }
      });
    case EVENT_TYPES.turnStarted:
      return read(draft, event, TurnStartedPayloadSchema, ({ agent, turn_id, kind }) => {
        // One turn per lane: a start replaces whatever the lane held (decide never starts a second).
        endTurn(draft, (turn) => turn.agent === agent, null);
        draft.turns_in_progress.push({ turn_id, agent, kind, seq: event.seq });
      });
    case EVENT_TYPES.turnFailed:
      return read(draft, event, TurnFailedPayloadSchema, ({ turn_id }) =>
        endTurn(draft, (turn) => turn.turn_id === turn_id, ending('failed', event)),
      );
    case EVENT_TYPES.turnCompleted:
      return read(draft, event, TurnCompletedPayloadSchema, ({ turn_id, answer_event_id }) =>
        endTurn(draft, (turn) => turn.turn_id === turn_id, {
          outcome: 'answered',
          answer_event_id,
          ended_seq: event.seq,
        }),
      );
    case EVENT_TYPES.toolLoopLimitReached:
      return read(draft, event, ToolLoopLimitReachedPayloadSchema, ({ turn_id }) =>
        endTurn(draft, (turn) => turn.turn_id === turn_id, ending('limit_reached', event)),
      );
    case EVENT_TYPES.readinessConfirmed:
      return read(draft, event, ReadinessConfirmedPayloadSchema, () => {
        // The latest confirmation counts: `decide` appends another only after the brief's handoff was rejected.
        draft.readiness = { confirmed: true, ...where, confirmed_at: event.created_at };
      });
    case EVENT_TYPES.toolCompleted:
      return read(
        draft,
        event,
        ToolCompletedPayloadSchema,
        ({ agent, tool_call_id, tool, args, ok, result }) => {
          draft.history.push({
            role: 'tool',
            agent,
            tool_call_id,
            tool,
            args,
            ok,
            content: result,
            ...where,
          });
          draft.pending_actions = draft.pending_actions.filter(
            (action) => action.tool_call_id !== tool_call_id,
          );
        },
      );
    case EVENT_TYPES.actionProposed:
    case EVENT_TYPES.actionApproved:
    case EVENT_TYPES.actionDenied:
      return applyAction(draft, event);
  }
  if (event.type === EVENT_TYPES.sessionEnded) {
    draft.ended_at_seq ??= event.seq;
    return;
  }
  if (TURN_CONTROL_TYPES.has(event.type)) return applyTurnControl(draft, event);
  if (QUESTION_TYPES.has(event.type)) return applyQuestion(draft, event);
  if (event.type.startsWith(HANDOFF_EVENT_PREFIX)) return applyHandoff(draft, event);
  if (event.type.startsWith(ARTIFACT_EVENT_PREFIX)) return applyArtifact(draft, event);
}

/** An action a tool proposed, and the person's approval or denial of it. */
function applyAction(draft: ConversationDraft, event: SessionEvent): void {
  switch (event.type) {
    case EVENT_TYPES.actionProposed:
      return read(
        draft,
        event,
        ActionProposedPayloadSchema,
        ({ action_id, tool_call_id, agent, turn_id, tool, args }) => {
          const turn =
            turn_id ??
            draft.turns_in_progress.find((open) => open.agent === agent)?.turn_id ??
            null;
          draft.pending_actions.push({
            action_id,
            tool_call_id: tool_call_id ?? null,
            status: 'proposed',
            agent,
            turn_id: turn,
            tool,
            args,
            seq: event.seq,
          });
        },
      );
    case EVENT_TYPES.actionApproved:
      return read(draft, event, ActionResolvedPayloadSchema, ({ action_id }) => {
        // Approved actions stay pending until their run is recorded, so a restart knows to run them.
        draft.pending_actions = draft.pending_actions.map((action) =>
          action.action_id === action_id ? { ...action, status: 'approved' } : action,
        );
      });
    case EVENT_TYPES.actionDenied:
      return read(draft, event, ActionResolvedPayloadSchema, ({ action_id }) => {
        draft.pending_actions = draft.pending_actions.filter(
          (action) => action.action_id !== action_id,
        );
      });
  }
}

/** A turn ended with no answer of its own. */
const ending = (outcome: 'failed' | 'limit_reached', event: SessionEvent) => ({
  outcome,
  answer_event_id: null,
  ended_seq: event.seq,
});

function applyHandoff(draft: ConversationDraft, event: SessionEvent): void {
  const handoff = handoffFromEvent(event);
  if (handoff === null) return skip(draft, event, 'payload is not a handoff of this event type');
  const index = draft.handoffs.findIndex((existing) => existing.id === handoff.id);
  if (index === -1) draft.handoffs.push(handoff);
  else draft.handoffs[index] = handoff;
}

/** The event types `applyByType` reads (besides `handoff.*` and `artifact.*`); others only advance `last_seq`. */
const READ_TYPES: ReadonlySet<string> = new Set([
  EVENT_TYPES.chatMessage,
  EVENT_TYPES.agentResponse,
  EVENT_TYPES.agentActivated,
  EVENT_TYPES.turnStarted,
  EVENT_TYPES.turnFailed,
  EVENT_TYPES.turnCompleted,
  EVENT_TYPES.toolLoopLimitReached,
  EVENT_TYPES.readinessConfirmed,
  EVENT_TYPES.toolCompleted,
  EVENT_TYPES.actionProposed,
  EVENT_TYPES.actionApproved,
  EVENT_TYPES.actionDenied,
]);

function isReadType(type: string): boolean {
  return (
    READ_TYPES.has(type) ||
    TURN_CONTROL_TYPES.has(type) ||
    QUESTION_TYPES.has(type) ||
    type.startsWith(HANDOFF_EVENT_PREFIX) ||
    type.startsWith(ARTIFACT_EVENT_PREFIX)
  );
}

function assertFollows(draft: ConversationDraft, event: SessionEvent): void {
  if (draft.session_id !== null && event.session_id !== draft.session_id) {
    throw new InvariantViolationError(
      'event_session',
      `event ${event.id} of session ${event.session_id} folded into session ${draft.session_id}`,
    );
  }
  if (event.seq <= draft.last_seq) {
    throw new InvariantViolationError(
      'event_order',
      `event seq ${event.seq} folded after seq ${draft.last_seq}`,
    );
  }
}
