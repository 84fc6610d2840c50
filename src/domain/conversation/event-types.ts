/**
 * Wire names of the session events the conversation rules read or write.
 *
 * Names from the records (record ADR 0008, 0101; see docs/records.md): `chat.message`, `agent.activated`, `agent.response`,
 * `artifact.<type>`, `handoff.<status>`, `toolloop.limit_reached`, `session.ended`.
 * Names chosen here, because the records leave them open:
 * - `turn.started` — a model turn began (one user message = one turn; also the consolidation turn).
 *   A turn ends with `agent.response` (it answered), `turn.completed` or `turn.failed` (provider error, refused budget, or a
 *   process that died mid-turn and was found so on restart). Between the two the turn is "in progress".
 * - `turn.failed` — see above; carries a `reason`.
 * - `turn.completed` — a turn whose last response spoke and whose tool calls only recorded something (all
 *   recorded) ends on that response without another model call; names the response (ADR 0380).
 * - `turn.ended` — every turn's end, whatever ended it, appended last in the batch that holds its ending event
 *   (`turn_id`, `agent`, `outcome`), so a client knows an agent is done without reading the ending rules (ADR 0422).
 * - `readiness.confirmed` — the person pressed "Estou pronto para produzir"; only a person causes it.
 * - `tool.completed` — one tool call and its result in one event, so a history never holds a call without
 *   its result (a crash between two events would otherwise leave a dangling call the provider rejects).
 * - `action.proposed` / `action.approved` / `action.denied` — a `proposed` tool waiting for the person.
 * - `budget.exceeded` — the gateway refused a call on budget.
 * - `context.compacted` / `context.compaction_failed` — the ContextManager summarised an agent's history, or
 *   could not and sent a recorded window instead (ADR 0080; the record names the first).
 *
 * - `turn.stopped` — the person stopped a running turn; carries the text streamed so far (ADR 0220).
 * - `turn.stop_requested` — the person pressed Stop in a process that does not run the turn; the process that
 *   runs it (or takes its lane over) stops it (ADR 0220).
 * - `turn.retried` — the person retried a failed turn: the same turn is in progress again (ADR 0220).
 * - `answer.superseded` — the person asked for the lane's last answer again; the old one stays in the log,
 *   out of the history (ADR 0220).
 *
 * - `person.asked` / `person.answered` — an agent's question for the person (`ask_person`) and the answer.
 *
 * Deliberately a leaf module (imports nothing) so every domain folder can import it without cycles.
 */
export const EVENT_TYPES = {
  chatMessage: 'chat.message',
  agentActivated: 'agent.activated',
  agentResponse: 'agent.response',
  turnStarted: 'turn.started',
  turnFailed: 'turn.failed',
  turnCompleted: 'turn.completed',
  turnEnded: 'turn.ended',
  readinessConfirmed: 'readiness.confirmed',
  toolCompleted: 'tool.completed',
  actionProposed: 'action.proposed',
  actionApproved: 'action.approved',
  actionDenied: 'action.denied',
  budgetExceeded: 'budget.exceeded',
  toolLoopLimitReached: 'toolloop.limit_reached',
  sessionEnded: 'session.ended',
  contextCompacted: 'context.compacted',
  contextCompactionFailed: 'context.compaction_failed',
  turnStopped: 'turn.stopped',
  turnStopRequested: 'turn.stop_requested',
  turnRetried: 'turn.retried',
  answerSuperseded: 'answer.superseded',
  personAsked: 'person.asked',
  personAnswered: 'person.answered',
} as const;

/** Prefix of every artifact event: `artifact.business_rule`, `artifact.product_brief`, … */
export const ARTIFACT_EVENT_PREFIX = 'artifact.';

/** Prefix of every handoff transition event: `handoff.offered`, `handoff.accepted`, … */
export const HANDOFF_EVENT_PREFIX = 'handoff.';

/** The conversation events an artifact's `origin` may point to: what the person or an agent said. */
export const CONVERSATION_EVENT_TYPES: ReadonlySet<string> = new Set([
  EVENT_TYPES.chatMessage,
  EVENT_TYPES.agentResponse,
]);

/**
 * The events that end a turn other than its answer: `turn.failed`, `turn.completed` (the stop rule, ADR 0380) and
 * `toolloop.limit_reached`. An `agent.response` without tool calls ends its turn too (`endsTurn`).
 */
export const TURN_ENDING_TYPES: readonly string[] = [
  EVENT_TYPES.turnFailed,
  EVENT_TYPES.turnCompleted,
  EVENT_TYPES.toolLoopLimitReached,
];

/**
 * Whether `event` ends its turn: one of `TURN_ENDING_TYPES`, or an answer without tool calls (none, or an empty
 * list, as the fold reads it). The one rule every
 * reader of turn ends uses (the fold, the block loop, `forja status` and start-up through `turnEndsSql`). Pure.
 */
export function endsTurn(event: { readonly type: string; readonly payload?: unknown }): boolean {
  if (TURN_ENDING_TYPES.includes(event.type)) return true;
  if (event.type !== EVENT_TYPES.agentResponse) return false;
  const { payload } = event;
  if (typeof payload !== 'object' || payload === null || !('tool_calls' in payload)) return true;
  return Array.isArray(payload.tool_calls) && payload.tool_calls.length === 0;
}

/** `endsTurn` as a SQL condition on the `session_events` row `alias` (the same rule, for queries). */
export function turnEndsSql(alias: string): string {
  const types = TURN_ENDING_TYPES.map((type) => `'${type}'`).join(', ');
  const answer = `${alias}.type = '${EVENT_TYPES.agentResponse}'`;
  const noCalls = `(not ${alias}.payload ? 'tool_calls' or ${alias}.payload->'tool_calls' = '[]'::jsonb)`;
  return `(${alias}.type in (${types}) or (${answer} and ${noCalls}))`;
}
