import { useState, type FormEvent } from 'react';
import { postJson } from '../../api/client.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { t } from '../../i18n/t.ts';

/** The most characters an answer takes (the server's limit). */
const MAX_ANSWER = 8000;

/**
 * The answer box of an agent's question in Needs you: pick an option or write an answer, or leave the decision
 * to the agent. `POST /api/sessions/:id/questions/:questionId/answer`; the item leaves the list when the
 * `person.answered` event arrives.
 */
export function QuestionAnswer({
  sessionId,
  questionId,
  options,
}: {
  sessionId: string;
  questionId: string;
  options: string[];
}) {
  const [answer, setAnswer] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const send = async (body: { answer: string } | { decide_yourself: true }) => {
    setBusy(true);
    setError(null);
    try {
      await postJson('/api/sessions/{id}/questions/{questionId}/answer', {
        path: { id: sessionId, questionId },
        body,
      });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (answer.trim() !== '') void send({ answer: answer.trim() });
  };
  const inputId = `answer-${questionId}`;
  return (
    <form className="question-answer" data-testid="question-answer" onSubmit={submit}>
      {options.length > 0 && (
        <div className="row buttons">
          {options.map((option) => (
            <button
              key={option}
              type="button"
              className="small-button"
              data-testid="question-option"
              disabled={busy}
              onClick={() => setAnswer(option)}
            >
              {option}
            </button>
          ))}
        </div>
      )}
      <label htmlFor={inputId} className="small">
        {t('needsYou.question.answer')}
      </label>
      <textarea
        id={inputId}
        data-testid="question-answer-input"
        value={answer}
        maxLength={MAX_ANSWER}
        rows={2}
        onChange={(event) => setAnswer(event.target.value)}
      />
      <div className="row buttons">
        <button
          type="submit"
          className="primary"
          data-testid="question-send"
          disabled={busy || answer.trim() === ''}
          aria-busy={busy}
        >
          {t('needsYou.question.send')}
        </button>
        <button
          type="button"
          data-testid="question-decide-yourself"
          disabled={busy}
          onClick={() => void send({ decide_yourself: true })}
        >
          {t('needsYou.question.decideYourself')}
        </button>
      </div>
      {error !== null && <ErrorMessage error={error} testId="question-error" />}
    </form>
  );
}
