import { type RefObject, useEffect, useRef, useState } from 'react';
import { getJson, postJson } from '../api/client.ts';
import { describeError } from '../components/ErrorMessage.tsx';
import { useApiData } from '../components/use-api-data.ts';
import { t } from '../i18n/t.ts';
import type { ModuleDeclaration } from '../session/fold/session-view.ts';
import { CommitLink } from './CommitLink.tsx';

const REFRESH_DELAY_MS = 400;
const short = (commit: string) => commit.slice(0, 12);

/**
 * The line's last step, shown once `line.completed` is recorded: "Merge into main" (the person's action, once),
 * then the merge commit on main. Reads `GET /api/sessions/:id/line` again shortly after the log moves.
 */
export function LineEndPanel({
  sessionId,
  refreshKey,
  modules,
}: {
  sessionId: string;
  refreshKey: number;
  /** The current module map's modules, for "how to run it". */
  modules: ModuleDeclaration[];
}) {
  // A failure keeps what was read; the next change of the log asks again.
  const lineEnd = useApiData(
    () => getJson('/api/sessions/{id}/line', { path: { id: sessionId } }),
    `${sessionId}/${refreshKey}`,
    { delayMs: REFRESH_DELAY_MS },
  );
  const line = lineEnd.data;
  const mergedHeading = useRef<HTMLHeadingElement>(null);
  const [justMerged, setJustMerged] = useState(false);
  // After the person's Merge, focus goes to what they now have (the button they pressed is gone).
  useEffect(() => {
    if (justMerged) mergedHeading.current?.focus();
  }, [justMerged]);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (line?.completed == null) return null;
  const merge = async () => {
    setRunning(true);
    setError(null);
    try {
      const merged = await postJson('/api/sessions/{id}/line/merge-into-main', {
        path: { id: sessionId },
      });
      lineEnd.set({ ...line, merged_into_main: merged });
      setJustMerged(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setRunning(false);
    }
  };
  if (line.merged_into_main !== null)
    return (
      <MergedPanel
        merged={line.merged_into_main}
        cloneFrom={
          line.clone_path != null
            ? `${window.location.origin}${line.clone_path}`
            : (line.workspace_path ?? null)
        }
        modules={modules}
        headingRef={mergedHeading}
      />
    );
  const skipped = line.completed.checks_skipped ?? [];
  return (
    <section className="panel" data-testid="line-end">
      <h2>{t('lineEnd.title')}</h2>
      <p>
        {t(skipped.length === 0 ? 'lineEnd.ready' : 'lineEnd.readyUnchecked', {
          commit: short(line.completed.commit),
        })}
      </p>
      {skipped.length > 0 && (
        <p className="banner warning" data-testid="line-end-skipped">
          {t('lineEnd.checksSkipped', { modules: skipped.join(', ') })}
        </p>
      )}
      <p className="small">
        {t('lineEnd.showDevChanges')} <CommitLink sha={line.completed.commit} />
      </p>
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
      {error !== null && (
        <p className="error" role="alert" data-testid="merge-into-main-error">
          {t('lineEnd.failed', { message: describeError(error) })}
        </p>
      )}
    </section>
  );
}

/** What the person has once the line is on main: the merge commit, how to get it, how to run it. */
function MergedPanel({
  merged,
  cloneFrom,
  modules,
  headingRef,
}: {
  merged: { commit: string };
  /** The URL (or, from an older server, the path) to `git clone`. */
  cloneFrom: string | null;
  modules: ModuleDeclaration[];
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  return (
    <section className="panel success" data-testid="line-end" aria-labelledby="line-merged-title">
      <h2 id="line-merged-title" ref={headingRef} tabIndex={-1} data-testid="line-merged-title">
        {t('lineEnd.done.title')}
      </h2>
      <p data-testid="merged-into-main" title={merged.commit}>
        {t('lineEnd.merged', { commit: short(merged.commit) })}
      </p>
      <p className="small">
        {t('lineEnd.showChanges')} <CommitLink sha={merged.commit} />
      </p>
      {cloneFrom !== null && (
        <>
          <h3>{t('lineEnd.done.get')}</h3>
          <pre className="step-command" data-testid="line-clone">
            git clone {cloneFrom}
          </pre>
        </>
      )}
      <h3>{t('lineEnd.done.run')}</h3>
      <p className="small">{t('lineEnd.done.runHint')}</p>
      {modules.length > 0 && (
        <ul className="small" data-testid="line-modules">
          {modules.map((module) => (
            <li key={module.name}>
              <code>{module.name}</code> — {module.stack}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
