import { useState } from 'react';
import { postJson } from '../../api/client.ts';
import { describeError } from '../../components/ErrorMessage.tsx';
import { t } from '../../i18n/t.ts';

/**
 * "I'm ready to produce" (with no business rule recorded it first asks whether to produce without any). The
 * server answers as soon as the consolidation turn starts (202); the button stays disabled while that turn is
 * in the log as running (`consolidating`), until the brief exists or the turn failed (press again to retry).
 */
export function ReadinessButton({
  sessionId,
  ruleCount,
  consolidating,
}: {
  sessionId: string;
  ruleCount: number;
  /** A consolidation turn is in progress (folded from the log). */
  consolidating: boolean;
}) {
  const [running, setRunning] = useState(false);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setAsking(false);
    setRunning(true);
    setError(null);
    try {
      await postJson('/api/sessions/{id}/readiness', { path: { id: sessionId } });
    } catch (failure) {
      setError(failure);
    } finally {
      setRunning(false);
    }
  };
  return (
    <div className="readiness">
      <button
        type="button"
        className="primary ready"
        data-testid="readiness-button"
        disabled={running || asking || consolidating}
        aria-busy={running || consolidating}
        onClick={() => (ruleCount === 0 ? setAsking(true) : void confirm())}
      >
        {running || consolidating ? t('readiness.running') : t('readiness.button')}
      </button>
      {asking ? (
        // With no business rule the brief has nothing to cite: the person says so on purpose.
        <div className="readiness-ask" role="alertdialog" aria-labelledby={`no-rules-${sessionId}`}>
          <p id={`no-rules-${sessionId}`} data-testid="readiness-no-rules">
            {t('readiness.noRules')}
          </p>
          <div className="row buttons">
            <button
              type="button"
              className="primary"
              data-testid="readiness-produce-anyway"
              onClick={() => void confirm()}
            >
              {t('readiness.produceAnyway')}
            </button>
            <button
              type="button"
              data-testid="readiness-keep-talking"
              onClick={() => setAsking(false)}
            >
              {t('readiness.keepTalking')}
            </button>
          </div>
        </div>
      ) : (
        <span className="muted small">{t('readiness.hint')}</span>
      )}
      {error !== null && (
        <p className="error" role="alert" data-testid="readiness-error">
          {t('readiness.failed', { message: describeError(error) })}
        </p>
      )}
    </div>
  );
}
