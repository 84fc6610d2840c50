import type { ConversationDraft } from './conversation-draft.ts';
import { EVENT_TYPES } from './event-types.ts';
import { PersonAnsweredPayloadSchema, PersonAskedPayloadSchema } from './person-questions.ts';
import { read } from './read-payload.ts';
import type { SessionEvent } from './session-event.ts';

/** The question events the fold reads. */
export const QUESTION_TYPES: ReadonlySet<string> = new Set([
  EVENT_TYPES.personAsked,
  EVENT_TYPES.personAnswered,
]);

/** Folds `person.asked` (a waiting question) and `person.answered` (its answer; a second one changes nothing). */
export function applyQuestion(draft: ConversationDraft, event: SessionEvent): void {
  if (event.type === EVENT_TYPES.personAsked)
    return read(draft, event, PersonAskedPayloadSchema, (asked) => {
      if (draft.questions.some((question) => question.question_id === asked.question_id)) return;
      draft.questions.push({
        question_id: asked.question_id,
        tool_call_id: asked.tool_call_id,
        agent: asked.agent,
        turn_id: asked.turn_id,
        question: asked.question,
        options: asked.options ?? [],
        why: asked.why ?? null,
        seq: event.seq,
        status: 'asked',
        answer: null,
        decide_yourself: false,
      });
    });
  return read(draft, event, PersonAnsweredPayloadSchema, (answered) => {
    draft.questions = draft.questions.map((question) =>
      question.question_id === answered.question_id && question.status === 'asked'
        ? {
            ...question,
            status: 'answered',
            answer: answered.answer,
            decide_yourself: answered.decide_yourself,
          }
        : question,
    );
  });
}
