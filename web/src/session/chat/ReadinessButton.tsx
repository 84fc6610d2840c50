import { useState } from 'react';
import { postJson } from '../../api/client.ts';
import { describeError } from '../../components/ErrorMessage.tsx';
import { t } from '../../i18n/t.ts';

/**
 * "I'm ready to produce": the request waits for the consolidation turn, so the button stays disabled until
 * the brief exists or the server says why not (no model, budget, an invalid brief — press again to retry).
 */
export function ReadinessButton({ sessionId }: { sessionId: string }) {
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setRunning(true);
    setError(null);
    try {
      await postJson(`/api/sessions/${encodeURIComponent(sessionId)}/readiness`);
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
        disabled={running}
        aria-busy={running}
        onClick={() => void confirm()}
      >
        {running ? t('readiness.running') : t('readiness.button')}
      </button>
      <span className="muted small">{t('readiness.hint')}</span>
      {error !== null && (
        <p className="error" role="alert" data-testid="readiness-error">
          {t('readiness.failed', { message: describeError(error) })}
        </p>
      )}
    </div>
  );
}
