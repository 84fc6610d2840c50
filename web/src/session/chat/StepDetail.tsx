import { Fragment } from 'react';
import { Highlighted } from '../../components/Highlighted.tsx';
import { grammarFor, highlightLines } from '../../components/highlight.ts';
import { t } from '../../i18n/t.ts';
import type { Step } from '../fold/session-view.ts';
import { lineDiff } from './line-diff.ts';

/** What an opened step did: a refused step its reason; a command, its output and exit; a file, its diff. */
export function StepDetailView({ step }: { step: Step }) {
  const { detail } = step;
  if (!step.ok)
    return (
      <>
        {detail.kind === 'terminal' && <Command command={detail.command} />}
        {detail.kind === 'write' && <FilePath path={detail.path} />}
        <p className="step-refusal" data-testid="step-refusal">
          <strong>{t('step.refusedBecause')}</strong> {step.result}
        </p>
      </>
    );
  switch (detail.kind) {
    case 'terminal':
      return (
        <>
          <Command command={detail.command} />
          {detail.output !== '' && (
            <pre className="step-output" data-testid="step-output">
              {detail.output}
            </pre>
          )}
          {detail.exit !== null && (
            <p
              className={/^exit code 0$/.test(detail.exit) ? 'step-exit ok' : 'step-exit failed'}
              data-testid="step-exit"
            >
              {exitText(detail.exit)}
            </p>
          )}
          {detail.notes.map((note) => (
            <p key={note} className="muted small">
              {note}
            </p>
          ))}
        </>
      );
    case 'write':
      return (
        <>
          <FilePath path={detail.path} />
          {detail.before === null ? (
            <>
              <p className="muted small">{t('step.writeContent')}</p>
              <pre className="step-output" data-testid="step-content">
                <HighlightedFile path={detail.path} content={detail.content} />
              </pre>
            </>
          ) : (
            <WriteDiff path={detail.path} before={detail.before} after={detail.content} />
          )}
        </>
      );
    case 'text':
      return (
        <>
          {detail.args !== '' && (
            <pre className="step-output" data-testid="step-arguments">
              {detail.args}
            </pre>
          )}
          {detail.result !== '' && (
            <pre className="step-output" data-testid="step-result">
              {detail.result}
            </pre>
          )}
        </>
      );
  }
}

function Command({ command }: { command: string }) {
  return (
    <pre className="step-command" data-testid="step-command">
      <span aria-hidden="true">$ </span>
      {command}
    </pre>
  );
}

function FilePath({ path }: { path: string }) {
  return (
    <p className="step-path">
      <code data-testid="step-path">{path}</code>
    </p>
  );
}

/** The exit status in words: "Exit code 2", or "Killed by SIGKILL". */
function exitText(exit: string): string {
  const code = /^exit code (-?\d+)$/.exec(exit);
  return code ? t('step.exitCode', { code: code[1]! }) : t('step.killed', { how: exit });
}

/** A file's text, highlighted by its path's language (as it is when the path names none). */
function HighlightedFile({ path, content }: { path: string; content: string }) {
  const grammar = grammarFor(path);
  if (grammar === null) return content;
  return highlightLines(content.split('\n'), grammar).map((tokens, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: a file's lines never move
    <Fragment key={index}>
      {index > 0 && '\n'}
      <Highlighted tokens={tokens} />
    </Fragment>
  ));
}

function WriteDiff({ path, before, after }: { path: string; before: string; after: string }) {
  const lines = lineDiff(before, after);
  const grammar = grammarFor(path);
  const tokens =
    grammar === null
      ? null
      : highlightLines(
          lines.map((line) => line.text),
          grammar,
        );
  return (
    <div className="diff-scroll" data-testid="step-diff">
      <table className="diff-lines">
        <tbody>
          {lines.map((line, index) => (
            <tr
              // biome-ignore lint/suspicious/noArrayIndexKey: the diff's lines never move
              key={index}
              className={
                line.op === '+'
                  ? 'diff-line added'
                  : line.op === '-'
                    ? 'diff-line removed'
                    : 'diff-line'
              }
            >
              <td className="line-sign">{line.op}</td>
              <td>{tokens === null ? line.text : <Highlighted tokens={tokens[index] ?? []} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
