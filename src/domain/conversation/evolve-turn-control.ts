import type { ConversationDraft } from './conversation-draft.ts';
import type { LaneEnd, TurnInProgress } from './conversation-state.ts';
import { EVENT_TYPES } from './event-types.ts';
import { read } from './read-payload.ts';
import type { SessionEvent } from './session-event.ts';
import {
  AnswerSupersededPayloadSchema,
  TurnRetriedPayloadSchema,
  TurnStoppedPayloadSchema,
} from './turn-control-payloads.ts';

/** How a turn ended, as the event that ended it says; null for a turn replaced by a newer start. */
export type TurnEnding = Pick<LaneEnd, 'outcome' | 'answer_event_id' | 'ended_seq'> | null;

/**
 * Closes the turn(s) in progress that `matches` picks (the other lanes go on) and records how each ended in
 * its lane's `lane_ends`.
 */
export function endTurn(
  draft: ConversationDraft,
  matches: (turn: TurnInProgress) => boolean,
  ending: TurnEnding,
): void {
  const ended = draft.turns_in_progress.filter(matches);
  if (ended.length === 0) return;
  draft.turns_in_progress = draft.turns_in_progress.filter((turn) => !matches(turn));
  if (ending === null) return;
  for (const turn of ended) {
    const end: LaneEnd = {
      agent: turn.agent,
      turn_id: turn.turn_id,
      kind: turn.kind,
      started_seq: turn.seq,
      ...ending,
      used_tools: usedTools(draft, turn),
    };
    draft.lane_ends = [...draft.lane_ends.filter((other) => other.agent !== turn.agent), end];
  }
}

/** Whether the turn's own history holds a tool call; read backwards from the end, so it costs the turn's length. */
function usedTools(draft: ConversationDraft, turn: TurnInProgress): boolean {
  for (let index = draft.history.length - 1; index >= 0; index -= 1) {
    const entry = draft.history[index]!;
    if (entry.seq <= turn.seq) return false;
    if (entry.role === 'tool' && entry.agent === turn.agent) return true;
    if (entry.role === 'assistant' && entry.agent === turn.agent && entry.tool_calls !== undefined)
      return true;
  }
  return false;
}

/** The event types of turn control (ADR 0220) that the fold reads. */
export const TURN_CONTROL_TYPES: ReadonlySet<string> = new Set([
  EVENT_TYPES.turnStopped,
  EVENT_TYPES.turnRetried,
  EVENT_TYPES.answerSuperseded,
]);

/** Folds `turn.stopped`, `turn.retried` and `answer.superseded`. */
export function applyTurnControl(draft: ConversationDraft, event: SessionEvent): void {
  const where = { seq: event.seq, event_id: event.id };
  switch (event.type) {
    case EVENT_TYPES.turnStopped:
      return read(draft, event, TurnStoppedPayloadSchema, ({ agent, turn_id, text }) => {
        const running = draft.turns_in_progress.some((turn) => turn.turn_id === turn_id);
        // What the person saw streamed is what the agent said: the next turn's model sees it too.
        if (running && text !== '')
          draft.history.push({ role: 'assistant', agent, content: text, ...where });
        endTurn(draft, (turn) => turn.turn_id === turn_id, {
          outcome: 'stopped',
          answer_event_id: running && text !== '' ? event.id : null,
          ended_seq: event.seq,
        });
      });
    case EVENT_TYPES.turnRetried:
      return read(draft, event, TurnRetriedPayloadSchema, ({ agent, turn_id }) => {
        const failed = draft.lane_ends.find(
          (end) => end.agent === agent && end.turn_id === turn_id && end.outcome === 'failed',
        );
        if (failed === undefined || draft.turns_in_progress.some((turn) => turn.agent === agent))
          return;
        // The same turn again, from its own start: what it did before it failed is still its history.
        draft.turns_in_progress.push({
          turn_id,
          agent,
          kind: failed.kind,
          seq: failed.started_seq,
        });
      });
    case EVENT_TYPES.answerSuperseded:
      return read(draft, event, AnswerSupersededPayloadSchema, ({ event_id }) => {
        const index = draft.history.findLastIndex((entry) => entry.event_id === event_id);
        if (index !== -1) draft.history.splice(index, 1);
      });
  }
}
