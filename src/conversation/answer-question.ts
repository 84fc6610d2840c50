import {
  checkAnswer,
  PERSON_ACTOR,
  type PersonReply,
  SESSION_EVENTS,
} from '../domain/conversation/index.ts';
import { findSession } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { resumeAfterPerson } from './resolve-action.ts';
import type { TurnResult } from './run-agent-turn.ts';
import { handleCommand } from './session-command.ts';

export interface QuestionAnswered {
  ok: true;
  question_id: string;
  agent: string;
  /** The asking agent's turn going on with the answer (the call's result), in its own lane. */
  turn: Promise<TurnResult>;
}

/**
 * The person's answer to an agent's question (`ask_person`): `person.answered` once (a second answer is
 * refused), then the waiting turn goes on in the agent's lane with the answer, or with "decide yourself".
 * Other lanes never waited.
 */
export async function answerQuestion(
  dependencies: ConversationDependencies,
  sessionId: string,
  questionId: string,
  reply: PersonReply,
  actor = PERSON_ACTOR,
): Promise<QuestionAnswered | Refusal> {
  const session = await findSession(dependencies.database, sessionId);
  if (session === null) return refusal(404, 'not_found', `No session with id ${sessionId}.`);
  const handled = await handleCommand(dependencies, sessionId, {
    what: `the answer to question ${questionId}`,
    decide: (view) => {
      const checked = checkAnswer(view.state.questions, questionId, reply);
      if (!checked.ok) return refusal(checked.status, checked.code, checked.reason);
      return {
        ok: true,
        events: [SESSION_EVENTS.personAnswered.create(actor, checked.payload)],
        value: checked.question.agent,
      };
    },
  });
  if (!handled.ok) return handled;
  const agent = handled.value;
  const turn = resumeAfterPerson(dependencies, sessionId, session.project_id, agent);
  return { ok: true, question_id: questionId, agent, turn };
}
