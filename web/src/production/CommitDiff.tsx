import { useEffect, useMemo, useRef, useState } from 'react';
import { getJson } from '../api/client.ts';
import type { CommitDiff } from '../api/types.ts';
import { describeError } from '../components/ErrorMessage.tsx';
import { Highlighted } from '../components/Highlighted.tsx';
import { grammarFor, highlightLines } from '../components/highlight.ts';
import { formatNumber } from '../i18n/format-number.ts';
import { currentLanguage, LANGUAGE_TAGS } from '../i18n/language.ts';
import { t } from '../i18n/t.ts';
import { SHORT } from './CommitLink.tsx';
import { type PatchFile, parsePatch } from './parse-patch.ts';

/** Lines drawn per file; the rest of a long file is counted, not drawn (a page of 20,000 rows is no help). */
const SHOWN_LINES_PER_FILE = 1500;

/** The commit's diff in a modal dialog: who and when, its files with +/- counts, each file's lines coloured. */
export function CommitDiffDialog({
  projectId,
  sha,
  onClose,
}: {
  projectId: string;
  sha: string;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, setState] = useState<{ diff: CommitDiff | null; error: unknown }>({
    diff: null,
    error: null,
  });
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    // No close() on cleanup: its `close` event would call onClose. Under StrictMode's mount, cleanup, mount, that
    // closed the dialog the moment it opened (the development build). Unmounted, the element leaves the top
    // layer with the DOM.
  }, []);
  useEffect(() => {
    let current = true;
    getJson('/api/projects/{id}/commits/{sha}/diff', { path: { id: projectId, sha } }).then(
      (diff) => current && setState({ diff, error: null }),
      (error: unknown) => current && setState({ diff: null, error }),
    );
    return () => {
      current = false;
    };
  }, [projectId, sha]);
  const files = useMemo(() => (state.diff ? parsePatch(state.diff.patch) : []), [state.diff]);
  const { diff } = state;
  const titleId = `diff-title-${sha}`;
  return (
    <dialog
      ref={dialog}
      className="commit-diff"
      data-testid="commit-diff"
      aria-labelledby={titleId}
      onClose={onClose}
    >
      <header className="commit-diff-header">
        <h2 id={titleId}>
          {t('diff.title', { commit: sha.slice(0, SHORT) })}
          {diff && `: ${diff.subject}`}
        </h2>
        <button type="button" data-testid="commit-diff-close" onClick={onClose}>
          {t('diff.close')}
        </button>
      </header>
      {diff === null && state.error === null && (
        <p className="muted" role="status">
          {t('common.loading')}
        </p>
      )}
      {state.error !== null && (
        <p className="error" role="alert" data-testid="commit-diff-error">
          {t('diff.failed', { message: describeError(state.error) })}
        </p>
      )}
      {diff && (
        <>
          <p className="muted small">
            {t('diff.byline', { author: diff.author, date: formatDate(diff.date) })}
          </p>
          {diff.body && <p className="small commit-body">{diff.body}</p>}
          {diff.truncated && (
            <p className="banner warning small" data-testid="diff-truncated">
              {t('diff.truncated', { size: formatNumber(Math.round(diff.max_bytes / 1024)) })}
            </p>
          )}
          <h3 className="small">
            {t('diff.files', { count: formatNumber(diff.files.length) })}
            {diff.files_truncated && ` ${t('diff.filesTruncated')}`}
          </h3>
          <ul className="diff-files small" data-testid="diff-files">
            {diff.files.map((file) => (
              <li key={file.path} data-testid="diff-file-summary">
                <code>{file.old_path ? `${file.old_path} → ${file.path}` : file.path}</code>{' '}
                {file.additions === null ? (
                  <span className="muted">{t('diff.binary')}</span>
                ) : (
                  <span
                    className="diff-counts"
                    title={t('diff.counts', {
                      added: formatNumber(file.additions),
                      removed: formatNumber(file.deletions ?? 0),
                    })}
                  >
                    <span className="added-count">+{formatNumber(file.additions)}</span>{' '}
                    <span className="removed-count">−{formatNumber(file.deletions ?? 0)}</span>
                    <span className="visually-hidden">
                      {' '}
                      {t('diff.counts', {
                        added: formatNumber(file.additions),
                        removed: formatNumber(file.deletions ?? 0),
                      })}
                    </span>
                  </span>
                )}
              </li>
            ))}
          </ul>
          {files.map((file, at) => (
            <PatchFileView key={`${file.path}:${at}`} file={file} />
          ))}
        </>
      )}
    </dialog>
  );
}

function PatchFileView({ file }: { file: PatchFile }) {
  const shown = useMemo(() => file.lines.slice(0, SHOWN_LINES_PER_FILE), [file]);
  // Hunk headers and notes are not code: they are left out of the highlighter's block-comment carry.
  const tokens = useMemo(() => {
    const grammar = grammarFor(file.path);
    return grammar === null
      ? null
      : highlightLines(
          shown.map((line) => (line.kind === 'hunk' || line.kind === 'note' ? '' : line.text)),
          grammar,
        );
  }, [file.path, shown]);
  return (
    <section className="diff-file" data-testid="diff-file" data-path={file.path}>
      <h3 className="small">
        <code>{file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}</code>{' '}
        <span className="muted">({t(`diff.status.${file.status}`)})</span>
      </h3>
      {file.binary ? (
        <p className="muted small">{t('diff.binary')}</p>
      ) : (
        <section
          className="diff-scroll"
          aria-label={t('diff.fileRegion', { path: file.path })}
          tabIndex={0}
        >
          <table className="diff-lines">
            <tbody>
              {shown.map((line, at) => (
                <tr key={at} className={`diff-line ${line.kind}`} data-kind={line.kind}>
                  <td className="line-number" aria-hidden="true">
                    {line.oldNumber ?? ''}
                  </td>
                  <td className="line-number" aria-hidden="true">
                    {line.newNumber ?? ''}
                  </td>
                  <td className="line-sign">
                    {line.kind === 'added' && (
                      <>
                        <span aria-hidden="true">+</span>
                        <span className="visually-hidden">{t('diff.added')}</span>
                      </>
                    )}
                    {line.kind === 'removed' && (
                      <>
                        <span aria-hidden="true">−</span>
                        <span className="visually-hidden">{t('diff.removed')}</span>
                      </>
                    )}
                  </td>
                  <td className="line-text">
                    <code>
                      {tokens === null || line.kind === 'hunk' || line.kind === 'note' ? (
                        line.text
                      ) : (
                        <Highlighted tokens={tokens[at] ?? []} />
                      )}
                    </code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {file.lines.length > SHOWN_LINES_PER_FILE && (
            <p className="muted small diff-more" data-testid="diff-more">
              {t('diff.moreLines', {
                count: formatNumber(file.lines.length - SHOWN_LINES_PER_FILE),
              })}
            </p>
          )}
        </section>
      )}
    </section>
  );
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(LANGUAGE_TAGS[currentLanguage()]);
}
