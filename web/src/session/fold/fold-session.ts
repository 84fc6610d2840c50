import type { StoredEvent } from '../../api/types.ts';
import { applyArtifact } from './apply-artifact.ts';
import { type FoldEvent, isArtifactEvent, readSessionEvent } from './fold-event.ts';
import { applyBlocks, toLineBlock } from './apply-blocks.ts';
import { applyInstructions, pendingInstructions } from './apply-instructions.ts';
import { applyLineEnd } from './apply-line-end.ts';
import { applyConversation } from './apply-conversation.ts';
import { applyCoordination, isCoordinationEvent } from './apply-coordination.ts';
import { applyQuestion, QUESTION_EVENTS } from './apply-questions.ts';
import { applyTurnControl, TURN_CONTROL_EVENTS, turnControls } from './apply-turn-control.ts';
import { newSessionDraft, type SessionDraft } from './session-draft.ts';
import type { AgentStatus, SessionView } from './session-view.ts';

/**
 * Folds a session's events (in seq order) into what the page shows. Pure. Each payload is read by the server's
 * own event definitions (ADR 0400): unknown event types are ignored and an event whose payload does not parse is
 * counted, never guessed at nor allowed to break the page.
 */
export function foldSession(events: readonly StoredEvent[]): SessionView {
  const draft = newSessionDraft();
  for (const event of events) applyEvent(draft, event);
  return toView(draft);
}

/** One event into the draft: the step both this fold and the page's incremental fold take (incremental-fold.ts). */
export function applyEvent(draft: SessionDraft, event: StoredEvent): void {
  const reading = readSessionEvent(event);
  if (reading.kind === 'unreadable') draft.unreadable += 1;
  else if (reading.kind === 'typed') {
    try {
      applyTyped(draft, reading.event);
    } catch {
      draft.unreadable += 1;
    }
  }
  draft.lastSeq = Math.max(draft.lastSeq, event.seq);
}

/** An event its kind's schema read, into the draft. */
function applyTyped(draft: SessionDraft, event: FoldEvent): void {
  applyBlocks(draft.lineBlocks, event);
  draft.instructions = applyInstructions(draft.instructions, event);
  draft.lineEnd = applyLineEnd(draft.lineEnd, event);
  if (isArtifactEvent(event)) applyArtifact(draft, event);
  else if (isCoordinationEvent(event.type)) applyCoordination(draft, event);
  else if (TURN_CONTROL_EVENTS.has(event.type)) applyTurnControl(draft, event);
  else if (QUESTION_EVENTS.has(event.type)) applyQuestion(draft, event);
  else applyConversation(draft, event);
}

/** The view of a draft. It shares the draft's lists and items, which the events after it go on changing. */
export function toView(draft: SessionDraft): SessionView {
  const bySeq = <Item extends { seq: number }>(items: Iterable<Item>) =>
    [...items].sort((a, b) => a.seq - b.seq);
  return {
    lastSeq: draft.lastSeq,
    chat: draft.chat,
    activeAgents: draft.activeAgents,
    lanes: draft.activeAgents.map((agent) => ({ agent, status: laneStatus(draft, agent) })),
    addressee: addresseeOf(draft),
    rules: draft.rules,
    brief: draft.brief,
    readinessConfirmed: draft.readinessConfirmed,
    handoffs: draft.handoffs,
    controls: turnControls(draft),
    actions: bySeq(draft.actions.values()),
    questions: bySeq(draft.questions.values()),
    openTurns: [...draft.openTurns.values()],
    backlog: {
      epics: bySeq(draft.epics.values()),
      stories: bySeq(draft.stories.values()),
      tasks: bySeq(draft.tasks.values()),
    },
    moduleMaps: draft.moduleMaps,
    contracts: draft.contracts,
    otherArtifacts: draft.otherArtifacts,
    devs: [...draft.devs.values()].sort((a, b) => a.module.localeCompare(b.module)),
    checking: [...new Set(draft.pendingChecks.values())],
    blocks: draft.lineBlocks.blocks.map(toLineBlock),
    instructions: pendingInstructions(draft.instructions),
    lineEnd: draft.lineEnd,
    unreadable: draft.unreadable,
  };
}

/** An agent's status: waiting for the person over working, working over blocked, blocked over done; else idle. */
function laneStatus(draft: SessionDraft, agent: string): AgentStatus {
  const turns = [...draft.openTurns.values()].filter((turn) => turn.agent === agent);
  const proposed = [...draft.actions.values()].some(
    (action) => action.agent === agent && action.status === 'proposed',
  );
  const asked = [...draft.questions.values()].some(
    (question) => question.agent === agent && question.status === 'asked',
  );
  if (proposed || asked || turns.some((turn) => turn.paused)) return 'waiting';
  if (turns.length > 0) return 'working';
  const dev = draft.devs.get(agent);
  const lastBlock = dev?.blocks.at(-1)?.seq ?? 0;
  const lastFinish = dev?.finished.at(-1)?.seq ?? 0;
  if (lastBlock > lastFinish) return 'blocked';
  if (draft.completedHandoffs.has(agent) || lastFinish > 0) return 'done';
  return 'idle';
}

/** The server's rule (src/conversation/responding-agent.ts): the agent last written to, unless one was activated after. */
function addresseeOf(draft: SessionDraft): string | null {
  const last = draft.activeAgents.at(-1) ?? null;
  const addressed = draft.lastAddressed;
  if (
    addressed !== null &&
    draft.activeAgents.includes(addressed.agent) &&
    (last === null || addressed.seq > (draft.activatedAt.get(last) ?? 0))
  )
    return addressed.agent;
  return last;
}
