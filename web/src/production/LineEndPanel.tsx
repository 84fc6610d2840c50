import { useState } from 'react';
import { getJson, postJson } from '../api/client.ts';
import { describeError } from '../components/ErrorMessage.tsx';
import { useApiData } from '../components/use-api-data.ts';
import { t } from '../i18n/t.ts';
import { CommitLink } from './CommitDiff.tsx';

type LineEnd = {
  completed: { commit: string; seq: number } | null;
  merged_into_main: { commit: string; dev_commit: string; seq: number } | null;
};

const REFRESH_DELAY_MS = 400;

/**
 * The line's last step, shown once `line.completed` is recorded: "Merge into main" (the person's action, once),
 * then the merge commit on main. Reads `GET /api/sessions/:id/line` again shortly after the log moves.
 */
export function LineEndPanel({ sessionId, refreshKey }: { sessionId: string; refreshKey: number }) {
  // A failure keeps what was read; the next change of the log asks again.
  const lineEnd = useApiData(
    () => getJson<LineEnd>(`/api/sessions/${encodeURIComponent(sessionId)}/line`),
    `${sessionId}/${refreshKey}`,
    { delayMs: REFRESH_DELAY_MS },
  );
  const line = lineEnd.data;
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (line?.completed == null) return null;
  const merge = async () => {
    setRunning(true);
    setError(null);
    try {
      const merged = await postJson<{ commit: string; dev_commit: string; seq: number }>(
        `/api/sessions/${encodeURIComponent(sessionId)}/line/merge-into-main`,
      );
      lineEnd.set({ ...line, merged_into_main: merged });
    } catch (failure) {
      setError(failure);
    } finally {
      setRunning(false);
    }
  };
  const short = (commit: string) => commit.slice(0, 12);
  return (
    <section className="panel" data-testid="line-end">
      <h2>{t('lineEnd.title')}</h2>
      <p>{t('lineEnd.ready', { commit: short(line.completed.commit) })}</p>
      <p className="small">
        {t('lineEnd.showDevChanges')} <CommitLink sha={line.completed.commit} />
      </p>
      {line.merged_into_main === null ? (
        <button
          type="button"
          className="primary"
          data-testid="merge-into-main"
          disabled={running}
          aria-busy={running}
          onClick={() => void merge()}
        >
          {running ? t('lineEnd.running') : t('lineEnd.button')}
        </button>
      ) : (
        <>
          <p data-testid="merged-into-main" title={line.merged_into_main.commit}>
            {t('lineEnd.merged', { commit: short(line.merged_into_main.commit) })}
          </p>
          <p className="small">
            {t('lineEnd.showChanges')} <CommitLink sha={line.merged_into_main.commit} />
          </p>
        </>
      )}
      {error !== null && (
        <p className="error" role="alert" data-testid="merge-into-main-error">
          {t('lineEnd.failed', { message: describeError(error) })}
        </p>
      )}
    </section>
  );
}
