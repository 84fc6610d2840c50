import { createContext, lazy, Suspense, useContext, useState } from 'react';
import { t } from '../i18n/t.ts';

/** The characters of a commit id shown. */
export const SHORT = 12;

/** The project whose repository holds the commits a page shows (the session page provides it). */
export const CommitProjectContext = createContext<string | null>(null);

/** The diff dialog, with the patch parser and the highlighter: loaded when a commit is first opened (ADR 0424). */
const CommitDiffDialog = lazy(() =>
  import('./CommitDiff.tsx').then((module) => ({ default: module.CommitDiffDialog })),
);

/** A commit id as a button: pressing it opens the commit's diff in a dialog; plain text outside a project. */
export function CommitLink({ sha }: { sha: string }) {
  const projectId = useContext(CommitProjectContext);
  const [open, setOpen] = useState(false);
  if (projectId === null) return <code title={sha}>{sha.slice(0, SHORT)}</code>;
  return (
    <>
      <button
        type="button"
        className="commit-link"
        data-testid="commit-link"
        data-sha={sha}
        aria-haspopup="dialog"
        aria-label={t('diff.open', { commit: sha.slice(0, SHORT) })}
        onClick={() => setOpen(true)}
      >
        <code>{sha.slice(0, SHORT)}</code>
      </button>
      {open && (
        <Suspense fallback={null}>
          <CommitDiffDialog projectId={projectId} sha={sha} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
