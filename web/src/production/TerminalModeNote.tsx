import { getJson } from '../api/client.ts';
import { useApiData } from '../components/use-api-data.ts';
import { t } from '../i18n/t.ts';

/**
 * Which of the dev agents' commands wait for the person, and whether their sandbox works: what `GET
 * /api/health` says of the terminal (ADR 0327), so a person is not surprised by commands that run unasked.
 */
export function TerminalModeNote() {
  const health = useApiData(() => getJson('/api/health'), 'health-terminal');
  const terminal = health.data?.terminal ?? null;
  if (terminal === null) return null;
  return (
    <p
      className="muted small"
      data-testid="terminal-mode"
      data-mode={terminal.mode}
      data-sandbox={String(terminal.sandbox_available)}
    >
      {t(`devs.terminal.${terminal.mode}`)}{' '}
      {terminal.sandbox_available
        ? t('devs.terminal.sandboxed')
        : t('devs.terminal.noSandbox', { reason: terminal.reason ?? '' })}
    </p>
  );
}
