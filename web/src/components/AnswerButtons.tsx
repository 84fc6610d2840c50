import { type FormEvent, type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
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
  onAnswered,
}: {
  waiting: boolean;
  yes: YesButton;
  no: NoButton;
  onYes: () => Promise<unknown>;
  onNo: (reason: string) => Promise<unknown>;
  errorTestId: string;
  /** Called once the answer given here is recorded (`waiting` turned false): where focus goes next. */
  onAnswered?: () => void;
}) {
  const [answeringNo, setAnsweringNo] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const reasonInput = useRef<HTMLInputElement>(null);
  const noButton = useRef<HTMLButtonElement>(null);
  const answeredHere = useRef(false);

  // The reason field takes focus when it opens; Cancel gives it back to the "no" button.
  useEffect(() => {
    if (answeringNo) reasonInput.current?.focus();
  }, [answeringNo]);
  // The buttons (or the whole card) leave with the event that records the answer: focus moves on, not to
  // the page's start — once the page shows what waits now.
  const whenAnswered = useRef(onAnswered);
  whenAnswered.current = onAnswered;
  const stillWaiting = useRef(waiting);
  stillWaiting.current = waiting;
  useEffect(() => {
    if (waiting || !answeredHere.current) return;
    answeredHere.current = false;
    whenAnswered.current?.();
  }, [waiting]);
  // Gone before or after its answer came back (the card leaves with the event): focus moves on all the same.
  const mounted = useRef(true);
  const moveOnLater = () => moveOn(answeredHere, whenAnswered);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (answeredHere.current) moveOn(answeredHere, whenAnswered);
    };
  }, []);

  const run = async (request: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await request();
      answeredHere.current = true;
      // The event that records the answer may come back before the request's own answer.
      if (!mounted.current || !stillWaiting.current) return moveOnLater();
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
            ref={noButton}
            data-testid={no.testId}
            disabled={busy}
            onClick={() => setAnsweringNo(true)}
          >
            {no.label}
          </button>
        </div>
      )}
      {waiting && answeringNo && (
        <ReasonForm
          reason={no.reason}
          value={reason}
          onChange={setReason}
          busy={busy}
          inputRef={reasonInput}
          onSubmit={submitNo}
          onCancel={() => {
            setAnsweringNo(false);
            requestAnimationFrame(() => noButton.current?.focus());
          }}
        />
      )}
      {error !== null && <ErrorMessage error={error} testId={errorTestId} />}
    </>
  );
}

/** The "no" answer's form: the reason, its confirm button (off until a required reason is written), Cancel. */
function ReasonForm({
  reason,
  value,
  onChange,
  busy,
  inputRef,
  onSubmit,
  onCancel,
}: {
  reason: NoButton['reason'];
  value: string;
  onChange: (value: string) => void;
  busy: boolean;
  inputRef: RefObject<HTMLInputElement | null>;
  onSubmit: (event: FormEvent) => void;
  onCancel: () => void;
}) {
  return (
    <form className="inline-form" onSubmit={onSubmit}>
      <label htmlFor={reason.id}>{reason.label}</label>
      <div className="row">
        <input
          ref={inputRef}
          id={reason.id}
          data-testid={reason.testId}
          value={value}
          maxLength={reason.maxLength}
          required={reason.required}
          placeholder={reason.placeholder}
          onChange={(event) => onChange(event.target.value)}
        />
        <button
          type="submit"
          className="danger"
          data-testid={reason.confirmTestId}
          disabled={busy || (reason.required && value.trim() === '')}
        >
          {reason.confirmLabel}
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

/** Once the page shows what waits now (the next frame), the answered control's `onAnswered`. */
function moveOn(
  answered: RefObject<boolean>,
  whenAnswered: RefObject<(() => void) | undefined>,
): void {
  answered.current = false;
  const next = whenAnswered.current;
  requestAnimationFrame(() => next?.());
}
