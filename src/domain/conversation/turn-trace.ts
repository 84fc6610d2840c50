import type { z } from 'zod';
import { AgentResponsePayloadSchema, ToolCompletedPayloadSchema } from './event-payloads.ts';
import type { SessionEvent } from './session-event.ts';

/** What a trace shows of a tool's result or arguments: the rest is in the log (the step's detail). */
export const TRACE_TEXT_CHARACTERS = 4000;

/** One tool call of a turn, timed between the event before it in the turn and its `tool.completed`. */
export interface TracedToolCall {
  tool_call_id: string;
  tool: string;
  args: string;
  ok: boolean;
  result: string;
  result_characters: number;
  started_at: string;
  ended_at: string;
  seq: number;
}

/** A turn as the log tells it (ADR 0411): its agent, its span, its model calls' ids, its tool calls, its events. */
export interface TurnSkeleton {
  turn_id: string;
  agent: string;
  status: 'running' | 'answered' | 'failed' | 'stopped' | 'limit_reached' | 'waiting';
  started_at: string;
  ended_at: string | null;
  usage_ids: string[];
  tools: TracedToolCall[];
  events: Array<{ seq: number; type: string; actor: string; created_at: string }>;
}

const ENDINGS: Record<string, TurnSkeleton['status']> = {
  'turn.completed': 'answered',
  'turn.failed': 'failed',
  'turn.stopped': 'stopped',
  'toolloop.limit_reached': 'limit_reached',
};

type Payload = Record<string, unknown>;
const payloadOf = (event: SessionEvent): Payload =>
  typeof event.payload === 'object' && event.payload !== null ? (event.payload as Payload) : {};

const cut = (text: string) =>
  text.length <= TRACE_TEXT_CHARACTERS ? text : `${text.slice(0, TRACE_TEXT_CHARACTERS)}…`;

/**
 * The turn `turnId` folded from a session's events, or null when no `turn.started` names it. Its events are
 * those naming the turn and those its agent appended while it ran (a tool's effects, appended with its
 * `tool.completed`). A retried turn is one turn: it spans from its first start to its last end.
 */
export function foldTurnTrace(
  events: readonly SessionEvent[],
  turnId: string,
): TurnSkeleton | null {
  const start = events.find(
    (event) => event.type === 'turn.started' && payloadOf(event)['turn_id'] === turnId,
  );
  if (start === undefined) return null;
  const agent = String(payloadOf(start)['agent'] ?? start.actor);
  const named = events.filter((event) => payloadOf(event)['turn_id'] === turnId);
  const last = named.at(-1)!;
  const ofTurn = events.filter(
    (event) =>
      payloadOf(event)['turn_id'] === turnId ||
      (event.actor === agent && event.seq > start.seq && event.seq < last.seq),
  );
  const skeleton: TurnSkeleton = {
    turn_id: turnId,
    agent,
    status: 'running',
    started_at: start.created_at,
    ended_at: null,
    usage_ids: [],
    tools: [],
    events: ofTurn.map(({ seq, type, actor, created_at }) => ({ seq, type, actor, created_at })),
  };
  let previous = start;
  for (const event of named) {
    const payload = payloadOf(event);
    if (event.type === 'agent.response') {
      const response = AgentResponsePayloadSchema.safeParse(event.payload);
      if (response.success && response.data.usage_id !== undefined)
        skeleton.usage_ids.push(response.data.usage_id);
      const calls = response.success ? (response.data.tool_calls ?? []) : [];
      skeleton.status = calls.length > 0 ? 'running' : 'answered';
      if (calls.length === 0) skeleton.ended_at = event.created_at;
    } else if (event.type === 'tool.completed') {
      const completed = ToolCompletedPayloadSchema.safeParse(event.payload);
      skeleton.status = 'running';
      if (completed.success) skeleton.tools.push(tracedTool(completed.data, previous, event));
    } else if (event.type === 'action.proposed' || event.type === 'person.asked') {
      skeleton.status = 'waiting';
    } else if (event.type in ENDINGS) {
      skeleton.status = ENDINGS[event.type]!;
      skeleton.ended_at = event.created_at;
    } else if (event.type === 'turn.retried') {
      skeleton.status = 'running';
      skeleton.ended_at = null;
    }
    previous = event;
  }
  return skeleton;
}

/** One `tool.completed` as the trace shows it, timed from the turn's event before it. */
function tracedTool(
  payload: z.output<typeof ToolCompletedPayloadSchema>,
  previous: SessionEvent,
  event: SessionEvent,
): TracedToolCall {
  return {
    tool_call_id: payload.tool_call_id,
    tool: payload.tool,
    args: cut(JSON.stringify(payload.args ?? {})),
    ok: payload.ok,
    result: cut(payload.result),
    result_characters: payload.result.length,
    started_at: previous.created_at,
    ended_at: event.created_at,
    seq: event.seq,
  };
}
