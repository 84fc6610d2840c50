import { useState } from 'react';
import { getJson } from '../api/client.ts';
import { useApiData } from './use-api-data.ts';
import { t } from '../i18n/t.ts';

/** How often the page asks the server (which answers from its last look, so this costs the model nothing). */
const POLL_MS = 30_000;

/**
 * On every page: a warning while the configured model endpoint does not answer (a local model server that is
 * not up yet, a refused key). Forja keeps running and looks again; "Check again" asks it to look now.
 */
export function ModelHealthBanner() {
  // A failure is not shown here: when the server is not reachable at all, the pages say so themselves.
  const health = useApiData(() => getJson('/api/health'), 'health', { everyMs: POLL_MS });
  const model = health.data?.model ?? null;
  const [checking, setChecking] = useState(false);

  if (model === null || !model.configured || model.reachable !== false) return null;
  const checkAgain = async () => {
    setChecking(true);
    try {
      health.set(await getJson('/api/health', { query: { check: 'model' } }));
    } catch {
      // As above: the pages say when the server does not answer.
    }
    setChecking(false);
  };
  return (
    <div className="banner warning model-health" role="status" data-testid="model-unreachable">
      <strong>
        {t('model.unreachable.title', { provider: model.provider ?? '', model: model.model ?? '' })}
      </strong>{' '}
      {t('model.unreachable.body', { reason: model.reason ?? '' })}{' '}
      {model.checked_at && (
        <span className="muted small">
          {t('model.unreachable.checkedAt', {
            time: new Date(model.checked_at).toLocaleTimeString(),
          })}
        </span>
      )}{' '}
      <button
        type="button"
        onClick={() => void checkAgain()}
        disabled={checking}
        data-testid="model-check-again"
      >
        {checking ? t('model.unreachable.checking') : t('model.unreachable.checkAgain')}
      </button>
    </div>
  );
}
