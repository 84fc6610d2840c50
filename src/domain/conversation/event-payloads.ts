import { GREETING_LANGUAGES } from './greetings.ts';
import { z } from 'zod';

/**
 * Version 1 payloads of the conversation events (names in `event-types.ts`). Every payload carries `v`.
 * Objects are not strict: a reader ignores fields it does not know, so adding an optional field is not a
 * new version; renaming or removing one is, and needs an upcaster (`upcast.ts`).
 */
const v1 = z.literal(1);

/**
 * `chat.message` — what the person wrote, and to whom (`to`, an agent slug active in the session). Logs from
 * before lanes have no `to`: such a message was for every agent, as it was then.
 */
export const ChatMessagePayloadSchema = z.object({
  v: v1,
  text: z.string(),
  to: z.string().min(1).optional(),
});

/** A tool call the model made, as recorded in the `agent.response` that carries it. */
export const RecordedToolCallSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.unknown(),
  /** Set when the model's arguments were not a JSON object; the call is then answered with this problem. */
  parse_error: z.string().optional(),
  /** Set when the response stopped at the agent's output cap (this many tokens) before the call was complete. */
  cut_at_tokens: z.number().int().positive().optional(),
  /** Set when Forja did not take the call (a limit passed, arguments it cannot store): the tool result, ADR 0306. */
  refused: z.string().optional(),
});

/**
 * `agent.response` — what an agent said in one model call. Without `tool_calls` it is the turn's final answer
 * and ends the turn (`turn_id`); with them, the turn goes on once each call has its `tool.completed`.
 */
export const AgentResponsePayloadSchema = z.object({
  v: v1,
  agent: z.string().min(1),
  text: z.string(),
  turn_id: z.string().min(1).optional(),
  tool_calls: z.array(RecordedToolCallSchema).optional(),
  /** The gateway's `token_usage` row of the call that produced it. */
  usage_id: z.string().min(1).optional(),
});

/** `agent.activated` — the agent runs in this session; `handoff_id` is null only for user-started agents. */
export const AgentActivatedPayloadSchema = z.object({
  v: v1,
  agent: z.string().min(1),
  handoff_id: z.string().min(1).nullable(),
  /** What the agent says as it joins (Criativo started by the person, ADR 0419): shown, never sent to the model. */
  greeting: z
    .object({ language: z.enum(GREETING_LANGUAGES), text: z.string().min(1).max(2_000) })
    .optional(),
});

/** Why a turn runs: a person's message, or the consolidation that follows readiness. */
export const TURN_KINDS = ['message', 'consolidation'] as const;

/** `turn.started` — a model turn began; `regenerates` names the turn whose answer it gives again (ADR 0220). */
export const TurnStartedPayloadSchema = z.object({
  v: v1,
  agent: z.string().min(1),
  turn_id: z.string().min(1),
  kind: z.enum(TURN_KINDS),
  regenerates: z.string().min(1).optional(),
});

/** `turn.failed` — the turn ended without a response. Older logs have no `agent`: the turn id names the lane. */
export const TurnFailedPayloadSchema = z.object({
  v: v1,
  turn_id: z.string().min(1),
  agent: z.string().min(1).optional(),
  reason: z.string(),
  /** What went wrong, in words for the person (absent in older logs). */
  message: z.string().optional(),
});

/** `readiness.confirmed` — the person pressed "Estou pronto para produzir". */
export const ReadinessConfirmedPayloadSchema = z.object({ v: v1 });

/** `tool.completed` — one tool call with its result; `ok: false` when the tool refused (e.g. emit_artifact). */
export const ToolCompletedPayloadSchema = z.object({
  v: v1,
  agent: z.string().min(1),
  /** The turn the call belongs to; absent in logs from before lanes (one turn at a time, so the agent's). */
  turn_id: z.string().min(1).optional(),
  tool_call_id: z.string().min(1),
  tool: z.string().min(1),
  args: z.unknown(),
  ok: z.boolean(),
  result: z.string(),
});

/** `action.proposed` — a `proposed` tool call waiting for the person. */
export const ActionProposedPayloadSchema = z.object({
  v: v1,
  action_id: z.string().min(1),
  /** The model's tool call this action answers; its `tool.completed` settles the action. */
  tool_call_id: z.string().min(1).optional(),
  agent: z.string().min(1),
  /** The turn that proposed it; absent in logs from before lanes. */
  turn_id: z.string().min(1).optional(),
  tool: z.string().min(1),
  args: z.unknown(),
  /** Why the person should look twice (the terminal's risky commands, ADR 0190); absent for other tools and older logs. */
  risk: z
    .object({
      risky: z.boolean(),
      reasons: z.array(z.object({ rule: z.string().min(1), why: z.string().min(1) })),
    })
    .optional(),
});

/** `action.approved` / `action.denied` — the person's answer to a proposed action. */
export const ActionResolvedPayloadSchema = z.object({
  v: v1,
  action_id: z.string().min(1),
  /** The lane the action holds (absent in logs from before lanes: the action id names it). */
  agent: z.string().min(1).optional(),
  turn_id: z.string().min(1).optional(),
  reason: z.string().optional(),
});

/** `toolloop.limit_reached` — the turn hit the agent's iteration ceiling; it ends the turn. */
export const ToolLoopLimitReachedPayloadSchema = z.object({
  v: v1,
  agent: z.string().min(1),
  turn_id: z.string().min(1),
  iterations: z.number().int().nonnegative(),
  ceiling: z.number().int().positive(),
});

/**
 * `turn.completed` — the turn ended on the answer `answer_event_id` (its `agent.response`, with text and tool calls
 * that only record something, all recorded): no further model call was owed (the loop's stop rule, ADR 0380).
 */
export const TurnCompletedPayloadSchema = z.object({
  v: v1,
  agent: z.string().min(1),
  turn_id: z.string().min(1),
  answer_event_id: z.string().min(1),
});

/** How a turn ended: it answered (its answer, or the stop rule), failed, was stopped, or hit its ceiling. */
export const TURN_OUTCOMES = ['answered', 'failed', 'stopped', 'limit_reached'] as const;

/**
 * `turn.ended` — the turn `turn_id` of `agent` ended with `outcome` (ADR 0422). Appended by Forja last in the
 * batch holding the event that ended it, so whatever the turn did is in the log before it; never read by the
 * fold, which ends turns on their own events.
 */
export const TurnEndedPayloadSchema = z.object({
  v: v1,
  agent: z.string().min(1),
  turn_id: z.string().min(1),
  outcome: z.enum(TURN_OUTCOMES),
});

/**
 * `context.compacted` — the ContextManager summarised `agent`'s history up to `through_seq`: from then on the
 * agent's requests carry `summary` in place of those messages (the originals stay in the log). `omitted` counts
 * the oldest messages that did not fit the summarising call itself (0 in the steady state); `usage_id` is the
 * summarising call's `token_usage` row.
 */
export const ContextCompactedPayloadSchema = z.object({
  v: v1,
  agent: z.string().min(1),
  through_seq: z.number().int().nonnegative(),
  summary: z.string(),
  tokens_before: z.number().int().nonnegative(),
  tokens_after: z.number().int().nonnegative(),
  omitted: z.number().int().nonnegative().optional(),
  usage_id: z.string().min(1).optional(),
  /** The agent's tool payloads up to this seq are sent as references to their events (a lean compaction). */
  payloads_through_seq: z.number().int().nonnegative().optional(),
});

/**
 * `context.compaction_failed` — the summarising call did not complete, so this call was sent a window of the
 * most recent messages that fit, with a note saying `left_out` earlier messages were not sent.
 */
export const ContextCompactionFailedPayloadSchema = z.object({
  v: v1,
  agent: z.string().min(1),
  reason: z.string(),
  message: z.string(),
  left_out: z.number().int().nonnegative(),
  window_from_seq: z.number().int().nonnegative(),
});

/** `session.created` — always seq 1: the project the session belongs to and its title. */
export const SessionCreatedPayloadSchema = z.object({
  v: v1,
  project_id: z.string().min(1),
  title: z.string().nullable(),
});

/** `budget.exceeded` — the gateway refused `agent`'s call: the project's figures when it refused. */
export const BudgetExceededPayloadSchema = z.object({
  v: v1,
  agent: z.string().min(1),
  usage_id: z.string().min(1),
  max_tokens: z.number().int().nonnegative(),
  spent_tokens: z.number().int().nonnegative(),
  reserved_tokens: z.number().int().nonnegative(),
  requested_tokens: z.number().int().nonnegative(),
  /** With a budget in money (US dollars): which budget refused, and its figures. */
  limit: z.enum(['tokens', 'usd', 'price_unknown']).optional(),
  max_usd: z.number().nonnegative().optional(),
  spent_usd: z.number().nonnegative().optional(),
  reserved_usd: z.number().nonnegative().optional(),
  requested_usd: z.number().nonnegative().nullable().optional(),
});

export type ChatMessagePayload = z.infer<typeof ChatMessagePayloadSchema>;
export type AgentResponsePayload = z.infer<typeof AgentResponsePayloadSchema>;
export type RecordedToolCall = z.infer<typeof RecordedToolCallSchema>;
export type AgentActivatedPayload = z.infer<typeof AgentActivatedPayloadSchema>;
export type TurnStartedPayload = z.infer<typeof TurnStartedPayloadSchema>;
export type TurnFailedPayload = z.infer<typeof TurnFailedPayloadSchema>;
export type TurnCompletedPayload = z.infer<typeof TurnCompletedPayloadSchema>;
export type ToolCompletedPayload = z.infer<typeof ToolCompletedPayloadSchema>;
export type ActionProposedPayload = z.infer<typeof ActionProposedPayloadSchema>;
export type ActionResolvedPayload = z.infer<typeof ActionResolvedPayloadSchema>;
export type ContextCompactedPayload = z.infer<typeof ContextCompactedPayloadSchema>;
export type ContextCompactionFailedPayload = z.infer<typeof ContextCompactionFailedPayloadSchema>;
export type TurnKind = (typeof TURN_KINDS)[number];
