import type { StoredEvent } from '../../api/types.ts';
import { type Fields, fields, list, optionalText, text, whole } from './read.ts';
import { fileKey, readStepDetail } from './read-step.ts';
import type { Step } from './session-view.ts';
import { endLane } from './apply-turn-control.ts';
import { devProgress, isDevAgent, type SessionDraft } from './session-draft.ts';

/** Folds the conversation events: messages, turns, activations, readiness, tools, failures. */
export function applyConversation(draft: SessionDraft, event: StoredEvent): void {
  const payload = fields(event.payload);
  const agent = text(payload['agent'], event.actor);
  const turnId = text(payload['turn_id']);
  switch (event.type) {
    case 'chat.message': {
      const to = optionalText(payload['to']);
      draft.chat.push({ kind: 'user', seq: event.seq, text: text(payload['text']), to });
      if (to !== null) draft.lastAddressed = { agent: to, seq: event.seq };
      return;
    }
    case 'agent.activated':
      if (!draft.activeAgents.includes(agent)) draft.activeAgents.push(agent);
      if (!draft.activatedAt.has(agent)) draft.activatedAt.set(agent, event.seq);
      draft.chat.push({ kind: 'activated', seq: event.seq, agent });
      if (isDevAgent(agent)) devProgress(draft, agent).activeSince ??= event.seq;
      return;
    case 'turn.started':
      draft.openTurns.set(turnId, {
        turnId,
        agent,
        kind: text(payload['kind'], 'message'),
        paused: false,
      });
      return;
    case 'agent.response': {
      const calls = list(payload['tool_calls']).map(fields);
      for (const call of calls) {
        if (text(call['id']) !== '' && turnId !== '')
          draft.turnOfToolCall.set(text(call['id']), turnId);
        if (text(call['name']) === 'finish_task' && text(call['id']) !== '')
          draft.pendingChecks.set(text(call['id']), agent);
      }
      const tools = calls.map((call) => text(call['name'])).filter((name) => name !== '');
      const said = text(payload['text']);
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
      if (tools.length === 0) {
        endLane(draft, agent, turnId, 'answered', event, true);
        draft.openTurns.delete(turnId);
      }
      if (isDevAgent(agent) && said.trim() !== '') devProgress(draft, agent).lastSaid = said;
      return;
    }
    case 'turn.completed': {
      // The stop rule (ADR 0380): the turn ended on its answer that spoke and recorded; that answer is shown already.
      const answer = text(payload['answer_event_id']);
      endLane(draft, agent, turnId, 'answered', { ...event, id: answer }, answer !== '');
      draft.openTurns.delete(turnId);
      return;
    }
    case 'turn.failed':
      endLane(draft, agent, turnId, 'failed', event, false);
      draft.openTurns.delete(turnId);
      for (const [call, owner] of draft.pendingChecks)
        if (owner === agent) draft.pendingChecks.delete(call);
      draft.chat.push({
        kind: 'failed',
        seq: event.seq,
        agent,
        reason: text(payload['reason'], 'unknown'),
        message: text(payload['message']),
        turnId,
      });
      if (isDevAgent(agent)) devProgress(draft, agent).failures += 1;
      return;
    case 'toolloop.limit_reached':
      endLane(draft, agent, turnId, 'limit_reached', event, false);
      draft.openTurns.delete(turnId);
      draft.chat.push({ kind: 'limit', seq: event.seq, agent, ceiling: whole(payload['ceiling']) });
      return;
    case 'budget.exceeded':
      draft.chat.push({
        kind: 'budget',
        seq: event.seq,
        agent,
        max: whole(payload['max_tokens']),
        spent: whole(payload['spent_tokens']),
        reserved: whole(payload['reserved_tokens']),
        requested: whole(payload['requested_tokens']),
      });
      return;
    case 'readiness.confirmed':
      draft.readinessConfirmed = true;
      draft.chat.push({ kind: 'readiness', seq: event.seq });
      return;
    case 'tool.completed':
      applyToolCompleted(draft, event, agent);
      return;
    case 'dev.task_finished':
      // The tool's own event comes just before its `tool.completed`, which records the finish.
      if (isDevAgent(agent) && optionalText(payload['commit']) !== null)
        draft.pendingCommits.set(agent, text(payload['commit']));
      return;
    case 'context.compacted': {
      // The divider goes where the summarised part ends, not where the summary was made.
      const throughSeq = whole(payload['through_seq']);
      const item = {
        kind: 'compaction' as const,
        seq: event.seq,
        agent,
        throughSeq,
        summary: text(payload['summary']),
        tokensBefore: whole(payload['tokens_before']),
        tokensAfter: whole(payload['tokens_after']),
      };
      const at = draft.chat.findIndex((existing) => existing.seq > throughSeq);
      if (at === -1) draft.chat.push(item);
      else draft.chat.splice(at, 0, item);
      return;
    }
    case 'context.compaction_failed': {
      const leftOut = whole(payload['left_out']);
      if (leftOut > 0)
        draft.chat.push({
          kind: 'window',
          seq: event.seq,
          agent,
          reason: text(payload['reason'], 'unknown'),
          leftOut,
        });
      return;
    }
  }
}

/** A step's result and what it did; a file it wrote or read becomes the content the next write is compared with. */
function readStep(
  draft: SessionDraft,
  agent: string,
  tool: string,
  payload: Fields,
): Pick<Step, 'result' | 'detail'> {
  const result = text(payload['result']);
  const path = optionalText(fields(payload['args'])['path']);
  const before = path === null ? null : (draft.knownFiles.get(fileKey(agent, path)) ?? null);
  const detail = readStepDetail(tool, payload['args'], result, before);
  if (payload['ok'] === true && path !== null) {
    if (detail.kind === 'write') draft.knownFiles.set(fileKey(agent, path), detail.content);
    if (tool === 'read_file') draft.knownFiles.set(fileKey(agent, path), result);
  }
  return { result, detail };
}

function applyToolCompleted(draft: SessionDraft, event: StoredEvent, agent: string): void {
  const payload = fields(event.payload);
  const tool = text(payload['tool']);
  const ok = payload['ok'] === true;
  const toolCallId = optionalText(payload['tool_call_id']);
  if (toolCallId !== null) draft.pendingChecks.delete(toolCallId);
  // One row per turn: a tool joins its turn's row; one with no known turn joins the row just before it, if the same agent's.
  const committed = tool === 'finish_task' && ok ? draft.pendingCommits.get(agent) : undefined;
  const step: Step = {
    seq: event.seq,
    tool,
    ok,
    ...(committed === undefined ? {} : { commit: committed }),
    ...readStep(draft, agent, tool, payload),
    decision: null,
  };
  const turnId = (toolCallId !== null ? draft.turnOfToolCall.get(toolCallId) : undefined) ?? null;
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
  for (const action of draft.actions.values()) {
    if (toolCallId === null || action.toolCallId !== toolCallId) continue;
    step.decision = action.decision;
    if (action.status !== 'denied') action.status = 'completed';
  }
  if (!isDevAgent(agent) || !ok) return;
  const args = fields(payload['args']);
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
