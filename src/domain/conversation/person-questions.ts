import { z } from 'zod';

/**
 * What only the person can decide goes to the person: an agent's `ask_person` records `person.asked`, its lane
 * waits, and the person's `person.answered` (an answer, or "decide yourself") lets the turn go on with it.
 */
const v1 = z.literal(1);

/** Most characters of a question, of each option and of the reason an agent gives. */
export const MAX_QUESTION_CHARACTERS = 2000;
/** Most options a question offers. */
export const MAX_QUESTION_OPTIONS = 10;
/** Most characters of the person's answer. */
export const MAX_ANSWER_CHARACTERS = 8000;

/** `person.asked` — an agent's question for the person; the tool call it came from waits for the answer. */
export const PersonAskedPayloadSchema = z.object({
  v: v1,
  question_id: z.string().min(1),
  tool_call_id: z.string().min(1),
  agent: z.string().min(1),
  turn_id: z.string().min(1),
  question: z.string().min(1),
  options: z.array(z.string()).optional(),
  why: z.string().optional(),
});

/** `person.answered` — the person's answer; `decide_yourself` when they left the decision to the agent. */
export const PersonAnsweredPayloadSchema = z.object({
  v: v1,
  question_id: z.string().min(1),
  agent: z.string().min(1),
  answer: z.string(),
  decide_yourself: z.boolean(),
});

export type PersonAskedPayload = z.infer<typeof PersonAskedPayloadSchema>;
export type PersonAnsweredPayload = z.infer<typeof PersonAnsweredPayloadSchema>;

/** A question of the session: `asked` waits for the person; `answered` carries what they said. */
export type PersonQuestion = {
  readonly question_id: string;
  readonly tool_call_id: string;
  readonly agent: string;
  readonly turn_id: string;
  readonly question: string;
  readonly options: readonly string[];
  readonly why: string | null;
  readonly seq: number;
  readonly status: 'asked' | 'answered';
  readonly answer: string | null;
  readonly decide_yourself: boolean;
};

/** The person's reply as the API takes it: an answer, or the decision left to the agent. */
export type PersonReply = { answer: string } | { decide_yourself: true };

export type AnswerCheck =
  | { ok: true; question: PersonQuestion; payload: PersonAnsweredPayload }
  | { ok: false; status: 404 | 409; code: string; reason: string };

/** The rule for answering: the question exists in the session and is still waiting (one answer each). */
export function checkAnswer(
  questions: readonly PersonQuestion[],
  questionId: string,
  reply: PersonReply,
): AnswerCheck {
  const question = questions.find((candidate) => candidate.question_id === questionId);
  if (question === undefined)
    return {
      ok: false,
      status: 404,
      code: 'not_found',
      reason: `No question with id ${questionId} in this session.`,
    };
  if (question.status === 'answered')
    return {
      ok: false,
      status: 409,
      code: 'already_answered',
      reason: `question ${questionId} was already answered`,
    };
  const decideYourself = 'decide_yourself' in reply;
  return {
    ok: true,
    question,
    payload: {
      v: 1,
      question_id: questionId,
      agent: question.agent,
      answer: decideYourself ? '' : reply.answer.trim(),
      decide_yourself: decideYourself,
    },
  };
}

/** What the asking agent is told once the person answered: the tool call's result. */
export function answerForTheAgent(question: PersonQuestion): string {
  if (question.decide_yourself)
    return `The person asked you to decide yourself: "${question.question}". Decide, then record it with record_decision (question, answer, reason, question_id: "${question.question_id}") if you have that tool, or say what you decided and why.`;
  return `The person answered "${question.question}": ${question.answer ?? ''}`;
}

/** What a brief's open questions need before the line goes on: how many, how many are closed, what still waits. */
export type OpenQuestionsCheck = {
  readonly open: readonly string[];
  readonly closed: number;
  readonly waiting: readonly PersonQuestion[];
};

/**
 * How far `agent` closed the brief's open questions: each closes by the person's answer (not "decide yourself")
 * or by a recorded decision, an answer recorded as a decision counting once. The count is what can be checked
 * without judging the words; the tool that hands the work on refuses while it is short or a question waits.
 */
export function openQuestionsCheck(
  openQuestions: readonly string[],
  questions: readonly PersonQuestion[],
  decisions: readonly { readonly recorded_by: string; readonly question_id?: string | undefined }[],
  agent: string,
): OpenQuestionsCheck {
  const own = questions.filter((question) => question.agent === agent);
  const answered = new Set(
    own
      .filter((question) => question.status === 'answered' && !question.decide_yourself)
      .map((question) => question.question_id),
  );
  const decided = decisions.filter(
    (decision) =>
      decision.recorded_by === agent &&
      (decision.question_id === undefined || !answered.has(decision.question_id)),
  );
  return {
    open: openQuestions,
    closed: answered.size + decided.length,
    waiting: own.filter((question) => question.status === 'asked'),
  };
}
