import type { StoredEvent } from '../../api/types.ts';
import { bool, fields, optionalText, text, texts } from './read.ts';
import type { SessionDraft } from './session-draft.ts';
import type { HandoffDecisionView } from './session-view.ts';

export const QUESTION_EVENTS: ReadonlySet<string> = new Set(['person.asked', 'person.answered']);

/** Folds an agent's question for the person (`person.asked`) and the person's answer (`person.answered`). */
export function applyQuestion(draft: SessionDraft, event: StoredEvent): void {
  const payload = fields(event.payload);
  const id = optionalText(payload['question_id']);
  if (id === null) return;
  if (event.type === 'person.asked') {
    if (draft.questions.has(id)) return;
    const agent = text(payload['agent'], event.actor);
    draft.questions.set(id, {
      id,
      seq: event.seq,
      agent,
      question: text(payload['question']),
      options: texts(payload['options']),
      why: optionalText(payload['why']),
      status: 'asked',
      answer: null,
      decideYourself: false,
    });
    for (const turn of draft.openTurns.values()) if (turn.agent === agent) turn.paused = true;
    return;
  }
  const question = draft.questions.get(id);
  if (question === undefined || question.status === 'answered') return;
  question.status = 'answered';
  question.answer = optionalText(payload['answer']);
  question.decideYourself = bool(payload['decide_yourself']);
  const stillWaiting = [...draft.questions.values()].some(
    (other) => other.agent === question.agent && other.status === 'asked',
  );
  if (!stillWaiting)
    for (const turn of draft.openTurns.values())
      if (turn.agent === question.agent) turn.paused = false;
}

/**
 * An `artifact.decision`: one an agent made by itself waits for the next handoff that agent offers, which lists
 * it (the server's rule: src/domain/conversation/handoff-decisions.ts).
 */
export function applyDecision(draft: SessionDraft, event: StoredEvent): void {
  const data = fields(fields(event.payload)['data']);
  const decidedBy = text(data['decided_by']);
  if (decidedBy === '' || decidedBy === 'person') return;
  const decision: HandoffDecisionView = {
    seq: event.seq,
    question: text(data['question']),
    answer: text(data['answer']),
    reason: text(data['reason']),
    decidedBy,
  };
  // biome-ignore lint/suspicious/noAssignInExpressions: `??=` creates the list where it is first needed
  (draft.unlistedDecisions[decidedBy] ??= []).push(decision);
}

/** The decisions `agent` made since its last handoff: they go on the handoff it offers now. */
export function takeUnlistedDecisions(draft: SessionDraft, agent: string): HandoffDecisionView[] {
  const decisions = draft.unlistedDecisions[agent] ?? [];
  delete draft.unlistedDecisions[agent];
  return decisions;
}
