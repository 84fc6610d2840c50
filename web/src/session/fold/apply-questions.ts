import type { ArtifactEvent, FoldEvent } from './fold-event.ts';
import { fields, text } from './read.ts';
import type { SessionDraft } from './session-draft.ts';
import type { HandoffDecisionView } from './session-view.ts';

export const QUESTION_EVENTS: ReadonlySet<string> = new Set(['person.asked', 'person.answered']);

/** Folds an agent's question for the person (`person.asked`) and the person's answer (`person.answered`). */
export function applyQuestion(draft: SessionDraft, event: FoldEvent): void {
  if (event.type === 'person.asked') {
    const { question_id: id, agent, question, options = [], why } = event.payload;
    if (draft.questions.has(id)) return;
    draft.questions.set(id, {
      id,
      seq: event.seq,
      agent,
      question,
      options: [...options],
      why: why === undefined || why === '' ? null : why,
      status: 'asked',
      answer: null,
      decideYourself: false,
    });
    for (const turn of draft.openTurns.values()) if (turn.agent === agent) turn.paused = true;
    return;
  }
  if (event.type !== 'person.answered') return;
  const question = draft.questions.get(event.payload.question_id);
  if (question === undefined || question.status === 'answered') return;
  question.status = 'answered';
  question.answer = event.payload.answer === '' ? null : event.payload.answer;
  question.decideYourself = event.payload.decide_yourself;
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
export function applyDecision(draft: SessionDraft, event: ArtifactEvent): void {
  const data = fields(event.payload.data);
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
