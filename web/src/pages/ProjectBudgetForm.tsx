import { useState, type FormEvent } from 'react';
import { getJson, putJson } from '../api/client.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { useApiData } from '../components/use-api-data.ts';
import { formatNumber } from '../i18n/format-number.ts';
import { t } from '../i18n/t.ts';

/** The project's token budget: what was used, the limit, and a form to change it. */
export function ProjectBudgetForm({ projectId }: { projectId: string }) {
  const usage = useApiData(
    () => getJson('/api/projects/{id}/usage', { path: { id: projectId } }),
    projectId,
  );
  const [value, setValue] = useState<string | null>(null);
  const [status, setStatus] = useState<{ saving: boolean; saved: boolean; error: unknown }>({
    saving: false,
    saved: false,
    error: null,
  });
  const current = usage.data?.max_tokens ?? null;
  const shown = value ?? (current === null ? '' : String(current));

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = shown.trim();
    if (trimmed !== '' && !/^\d+$/.test(trimmed))
      return setStatus({
        saving: false,
        saved: false,
        error: new Error(t('project.budget.invalid')),
      });
    setStatus({ saving: true, saved: false, error: null });
    try {
      await putJson('/api/projects/{id}/budget', {
        path: { id: projectId },
        body: { max_tokens: trimmed === '' ? null : Number(trimmed) },
      });
      setStatus({ saving: false, saved: true, error: null });
      setValue(null);
      usage.reload();
    } catch (error) {
      setStatus({ saving: false, saved: false, error });
    }
  };

  return (
    <section className="panel" data-testid="project-budget-panel">
      <h2>{t('project.budget.title')}</h2>
      {usage.error !== null && <ErrorMessage error={usage.error} />}
      {usage.data && (
        <>
          <p data-testid="project-budget-limit">
            {current === null
              ? t('project.budget.unlimited')
              : t('project.budget.limit', { max: formatNumber(current) })}
          </p>
          <p className="muted small">
            {t('project.budget.spent', { spent: formatNumber(Number(usage.data.total_tokens)) })}
          </p>
        </>
      )}
      <form className="inline-form" onSubmit={save}>
        <label htmlFor="budget-input">{t('project.budget.label')}</label>
        <div className="row">
          <input
            id="budget-input"
            data-testid="budget-input"
            inputMode="numeric"
            value={shown}
            onChange={(event) => setValue(event.target.value)}
          />
          <button type="submit" data-testid="save-budget" disabled={status.saving}>
            {t('project.budget.save')}
          </button>
        </div>
        {status.saved && <p className="muted small">{t('project.budget.saved')}</p>}
        {status.error !== null && <ErrorMessage error={status.error} />}
      </form>
    </section>
  );
}
