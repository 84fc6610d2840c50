import { fields, optionalText, text } from './read.ts';
import { fileKey, readStepDetail } from './read-step.ts';
import type { Step } from './session-view.ts';
import { endLane } from './apply-turn-control.ts';
import type { FoldEvent, FoldEventOf } from './fold-event.ts';
import { devProgress, isDevAgent, type SessionDraft } from './session-draft.ts';

/** Folds the conversation events: messages, turns, activations, readiness, tools, failures. */
export function applyConversation(draft: SessionDraft, event: FoldEvent): void {
  switch (event.type) {
    case 'chat.message': {
      const to = event.payload.to ?? null;
      draft.chat.push({ kind: 'user', seq: event.seq, text: event.payload.text, to });
      if (to !== null) draft.lastAddressed = { agent: to, seq: event.seq };
      return;
    }
    case 'agent.activated':
      return applyActivated(draft, event);
    case 'turn.started': {
      const { turn_id: turnId, agent, kind } = event.payload;
      // One turn per lane, as on the server: a start replaces whatever the lane held.
      for (const [open, turn] of draft.openTurns)
        if (turn.agent === agent) draft.openTurns.delete(open);
      draft.openTurns.set(turnId, { turnId, agent, kind, paused: false });
      return;
    }
    case 'turn.completed': {
      // The stop rule (ADR 0380): the turn ended on its answer that spoke and recorded; that answer is shown already.
      const { agent, turn_id: turnId, answer_event_id: answer } = event.payload;
      endLane(draft, agent, turnId, 'answered', { ...event, id: answer }, answer !== '');
      draft.openTurns.delete(turnId);
      return;
    }
    case 'agent.response':
      return applyResponse(draft, event);
    case 'turn.failed':
      return applyFailed(draft, event);
    case 'toolloop.limit_reached': {
      const { agent, turn_id: turnId, ceiling } = event.payload;
      endLane(draft, agent, turnId, 'limit_reached', event, false);
      draft.openTurns.delete(turnId);
      draft.chat.push({ kind: 'limit', seq: event.seq, agent, ceiling });
      return;
    }
    case 'budget.exceeded': {
      const { payload } = event;
      draft.chat.push({
        kind: 'budget',
        seq: event.seq,
        agent: payload.agent,
        max: payload.max_tokens,
        spent: payload.spent_tokens,
        reserved: payload.reserved_tokens,
        requested: payload.requested_tokens,
      });
      return;
    }
    case 'readiness.confirmed':
      draft.readinessConfirmed = true;
      draft.chat.push({ kind: 'readiness', seq: event.seq });
      return;
    case 'tool.completed':
      return applyToolCompleted(draft, event);
    case 'dev.task_finished':
      // The tool's own event comes just before its `tool.completed`, which records the finish.
      if (isDevAgent(event.payload.agent) && event.payload.commit !== '')
        draft.pendingCommits.set(event.payload.agent, event.payload.commit);
      return;
    case 'context.compacted':
      return applyCompacted(draft, event);
    case 'context.compaction_failed': {
      const { agent, reason, left_out: leftOut } = event.payload;
      if (leftOut > 0) draft.chat.push({ kind: 'window', seq: event.seq, agent, reason, leftOut });
      return;
    }
  }
}

function applyActivated(draft: SessionDraft, event: FoldEventOf<'agent.activated'>): void {
  const { agent } = event.payload;
  if (!draft.activeAgents.includes(agent)) draft.activeAgents.push(agent);
  if (!draft.activatedAt.has(agent)) draft.activatedAt.set(agent, event.seq);
  draft.chat.push({
    kind: 'activated',
    seq: event.seq,
    agent,
    greeting: event.payload.greeting ?? null,
  });
  if (isDevAgent(agent)) devProgress(draft, agent).activeSince ??= event.seq;
}

function applyResponse(draft: SessionDraft, event: FoldEventOf<'agent.response'>): void {
  const { agent, text: said, tool_calls: calls = [] } = event.payload;
  // Without a turn id (older logs) the answer is its agent's running turn's, as the server reads it.
  const turnId =
    event.payload.turn_id ??
    [...draft.openTurns.values()].find((turn) => turn.agent === agent)?.turnId ??
    '';
  for (const call of calls) {
    if (turnId !== '') draft.turnOfToolCall.set(call.id, turnId);
    if (call.name === 'finish_task') draft.pendingChecks.set(call.id, agent);
  }
  const tools = calls.map((call) => call.name);
  if (said.trim() !== '' || tools.length > 0)
    draft.chat.push({
      kind: 'agent',
      seq: event.seq,
      agent,
      text: said,
      tools,
      turnId,
      eventId: event.id,
    });
  if (tools.length > 0) draft.toolTurns.add(turnId);
  // A final answer closes its own agent's running turn, as the server's fold reads it.
  if (tools.length === 0 && draft.openTurns.get(turnId)?.agent === agent) {
    endLane(draft, agent, turnId, 'answered', event, true);
    draft.openTurns.delete(turnId);
  }
  if (isDevAgent(agent) && said.trim() !== '') devProgress(draft, agent).lastSaid = said;
}

function applyFailed(draft: SessionDraft, event: FoldEventOf<'turn.failed'>): void {
  const { turn_id: turnId, reason, message = '' } = event.payload;
  const agent = event.payload.agent ?? event.actor;
  endLane(draft, agent, turnId, 'failed', event, false);
  draft.openTurns.delete(turnId);
  for (const [call, owner] of draft.pendingChecks)
    if (owner === agent) draft.pendingChecks.delete(call);
  draft.chat.push({ kind: 'failed', seq: event.seq, agent, reason, message, turnId });
  if (isDevAgent(agent)) devProgress(draft, agent).failures += 1;
}

/** The divider goes where the summarised part ends, not where the summary was made. */
function applyCompacted(draft: SessionDraft, event: FoldEventOf<'context.compacted'>): void {
  const { payload } = event;
  const item = {
    kind: 'compaction' as const,
    seq: event.seq,
    agent: payload.agent,
    throughSeq: payload.through_seq,
    summary: payload.summary,
    tokensBefore: payload.tokens_before,
    tokensAfter: payload.tokens_after,
  };
  const at = draft.chat.findIndex((existing) => existing.seq > payload.through_seq);
  if (at === -1) draft.chat.push(item);
  else draft.chat.splice(at, 0, item);
}

type ToolCompleted = FoldEventOf<'tool.completed'>;

/** A step's result and what it did; a file it wrote or read becomes the content the next write is compared with. */
function readStep(draft: SessionDraft, event: ToolCompleted): Pick<Step, 'result' | 'detail'> {
  const { agent, tool, args, ok, result } = event.payload;
  // Tool arguments are what the model sent: read defensively, never trusted to have a shape.
  const path = optionalText(fields(args)['path']);
  const before = path === null ? null : (draft.knownFiles.get(fileKey(agent, path)) ?? null);
  const detail = readStepDetail(tool, args, result, before);
  if (ok && path !== null) {
    if (detail.kind === 'write') draft.knownFiles.set(fileKey(agent, path), detail.content);
    if (tool === 'read_file') draft.knownFiles.set(fileKey(agent, path), result);
  }
  return { result, detail };
}

function applyToolCompleted(draft: SessionDraft, event: ToolCompleted): void {
  const { agent, tool, ok, tool_call_id: toolCallId } = event.payload;
  draft.pendingChecks.delete(toolCallId);
  const committed = tool === 'finish_task' && ok ? draft.pendingCommits.get(agent) : undefined;
  const step: Step = {
    seq: event.seq,
    tool,
    ok,
    ...(committed === undefined ? {} : { commit: committed }),
    ...readStep(draft, event),
    decision: null,
  };
  addStepToRow(draft, event, step);
  for (const action of draft.actions.values()) {
    if (action.toolCallId !== toolCallId) continue;
    step.decision = action.decision;
    if (action.status !== 'denied') action.status = 'completed';
  }
  if (isDevAgent(agent) && ok) applyDevProgress(draft, event);
}

/** One row per turn: a tool joins its turn's row; one with no known turn joins the row just before it, if the same agent's. */
function addStepToRow(draft: SessionDraft, event: ToolCompleted, step: Step): void {
  const { agent, tool_call_id: toolCallId } = event.payload;
  const turnId = draft.turnOfToolCall.get(toolCallId) ?? null;
  const last = draft.chat.at(-1);
  const row =
    turnId !== null
      ? draft.stepsOfTurn.get(turnId)
      : last?.kind === 'steps' && last.agent === agent && last.turnId === null
        ? last
        : undefined;
  if (row) row.steps.push(step);
  else {
    const item = { kind: 'steps' as const, seq: event.seq, agent, turnId, steps: [step] };
    draft.chat.push(item);
    if (turnId !== null) draft.stepsOfTurn.set(turnId, item);
  }
}

/** A dev's `report_blocked` and `finish_task` steps, as its card shows them. */
function applyDevProgress(draft: SessionDraft, event: ToolCompleted): void {
  const { agent, tool } = event.payload;
  const args = fields(event.payload.args);
  const progress = devProgress(draft, agent);
  if (tool === 'report_blocked')
    progress.blocks.push({
      seq: event.seq,
      modulo: text(args['modulo']),
      falta: text(args['falta']),
    });
  if (tool === 'finish_task') {
    const taskId =
      optionalText(args['task_id']) ?? optionalText(args['task']) ?? optionalText(args['id']);
    const summary =
      optionalText(args['summary']) ??
      optionalText(args['resumo']) ??
      optionalText(args['message']);
    const commit = draft.pendingCommits.get(agent) ?? null;
    draft.pendingCommits.delete(agent);
    progress.finished.push({ seq: event.seq, taskId, summary, commit });
  }
}
