import { useState, type FormEvent, type ReactNode } from 'react';
import { ErrorMessage } from './ErrorMessage.tsx';
import { t } from '../i18n/t.ts';

/** The "yes" button: its words, class and test id, and how it says it is risky. */
export interface YesButton {
  label: ReactNode;
  className: 'primary' | 'danger';
  testId: string;
  risky?: boolean;
  describedBy?: string;
}

/** The "no" button and the reason form it opens. */
export interface NoButton {
  label: ReactNode;
  testId: string;
  reason: {
    /** The input's id (its label points at it). */
    id: string;
    label: ReactNode;
    testId: string;
    maxLength: number;
    /** A required reason keeps the confirm button off until there is one. */
    required: boolean;
    placeholder?: string;
    confirmLabel: ReactNode;
    confirmTestId: string;
  };
}

/**
 * The person's answer to something that waits for them (an action to approve or deny, a handoff to accept or
 * reject): Yes, or No with a reason in an inline form; busy while the request runs, its error under it.
 * `onNo` is given the trimmed reason ('' when none was written). The buttons show while `waiting`; an error
 * stays after the thing stopped waiting (another tab answered first: the 409 says so).
 */
export function AnswerButtons({
  waiting,
  yes,
  no,
  onYes,
  onNo,
  errorTestId,
}: {
  waiting: boolean;
  yes: YesButton;
  no: NoButton;
  onYes: () => Promise<unknown>;
  onNo: (reason: string) => Promise<unknown>;
  errorTestId: string;
}) {
  const [answeringNo, setAnsweringNo] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const run = async (request: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await request();
      setAnsweringNo(false);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const submitNo = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = reason.trim();
    if (no.reason.required && trimmed === '') return;
    void run(() => onNo(trimmed));
  };

  return (
    <>
      {waiting && !answeringNo && (
        <div className="row buttons">
          <button
            type="button"
            className={yes.className}
            data-testid={yes.testId}
            data-risky={yes.risky}
            aria-describedby={yes.describedBy}
            disabled={busy}
            onClick={() => void run(onYes)}
          >
            {yes.label}
          </button>
          <button
            type="button"
            data-testid={no.testId}
            disabled={busy}
            onClick={() => setAnsweringNo(true)}
          >
            {no.label}
          </button>
        </div>
      )}
      {waiting && answeringNo && (
        <form className="inline-form" onSubmit={submitNo}>
          <label htmlFor={no.reason.id}>{no.reason.label}</label>
          <div className="row">
            <input
              id={no.reason.id}
              data-testid={no.reason.testId}
              value={reason}
              maxLength={no.reason.maxLength}
              required={no.reason.required}
              placeholder={no.reason.placeholder}
              onChange={(event) => setReason(event.target.value)}
            />
            <button
              type="submit"
              className="danger"
              data-testid={no.reason.confirmTestId}
              disabled={busy || (no.reason.required && reason.trim() === '')}
            >
              {no.reason.confirmLabel}
            </button>
            <button type="button" onClick={() => setAnsweringNo(false)} disabled={busy}>
              {t('common.cancel')}
            </button>
          </div>
        </form>
      )}
      {error !== null && <ErrorMessage error={error} testId={errorTestId} />}
    </>
  );
}
