import { getJson } from '../../api/client.ts';
import type { AgentModel, Usage } from '../../api/types.ts';
import { AgentModels } from './AgentModels.tsx';
import { useApiData } from '../../components/use-api-data.ts';
import { agentName } from '../../i18n/agent-name.ts';
import { formatNumber } from '../../i18n/format-number.ts';
import { t } from '../../i18n/t.ts';

const REFRESH_DELAY_MS = 400;

/**
 * Tokens the session used, by agent and model, and the project's budget. Fetched again shortly after the
 * log moves (`refreshKey`), since every model call ends in an event.
 */
export function UsagePanel({
  sessionId,
  projectId,
  refreshKey,
  models,
}: {
  sessionId: string;
  projectId: string | null;
  refreshKey: number;
  /** Each agent's model, from the session state: listed when they differ. */
  models?: AgentModel[] | undefined;
}) {
  const usage = useApiData(
    () =>
      Promise.all([
        getJson('/api/sessions/{id}/usage', { path: { id: sessionId } }),
        projectId
          ? getJson('/api/projects/{id}/usage', { path: { id: projectId } })
          : Promise.resolve(null),
      ]),
    `${sessionId}/${projectId}/${refreshKey}`,
    { delayMs: REFRESH_DELAY_MS },
  );

  const [session, project] = usage.data ?? [null, null];
  const failed = usage.error !== null;
  const lines = session?.by_agent_and_model ?? [];
  const max = project?.max_tokens ?? null;
  return (
    <section className="panel" data-testid="usage-panel">
      <h2>{t('usage.title')}</h2>
      <AgentModels models={models} />
      {failed && <p className="muted small">{t('usage.unavailable')}</p>}
      {!failed && session === null && <p className="muted small">{t('common.loading')}</p>}
      {session && (
        <p data-testid="usage-session-total">
          {t('usage.session', { total: formatNumber(Number(session.total_tokens)) })}
        </p>
      )}
      {session && Number(session.total_cost_usd) > 0 && (
        <p className="muted small" data-testid="usage-session-cost">
          {t('usage.cost', {
            cost: Number(session.total_cost_usd).toFixed(4),
            cached: Math.round(Number(session.cached_share) * 100),
          })}
        </p>
      )}
      {session && Number(session.reserved_tokens) > 0 && (
        <p className="muted small">
          {t('usage.reserved', { reserved: formatNumber(Number(session.reserved_tokens)) })}
        </p>
      )}
      {session && lines.length === 0 && <p className="muted">{t('usage.empty')}</p>}
      {lines.length > 0 && (
        <table className="usage" tabIndex={0}>
          <thead>
            <tr>
              <th scope="col">{t('usage.col.agent')}</th>
              <th scope="col">{t('usage.col.model')}</th>
              <th scope="col" className="number">
                {t('usage.col.calls')}
              </th>
              <th scope="col" className="number">
                {t('usage.col.tokens')}
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr
                key={`${line.agent}/${line.provider}/${line.model}`}
                data-testid="usage-row"
                data-agent={line.agent}
              >
                <td>{agentName(line.agent)}</td>
                <td className="model" title={`${line.provider}:${line.model}`}>
                  {line.provider} · {line.model}
                </td>
                <td className="number">
                  {formatNumber(Number(line.calls))}
                  <UsageFlags line={line} />
                </td>
                <td className="number">
                  {formatNumber(Number(line.input_tokens))} /{' '}
                  {formatNumber(Number(line.output_tokens))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {project && <InterruptedNote usage={project} />}
      {project && (
        <p
          className={`budget ${max !== null && Number(project.total_tokens) >= max ? 'over' : ''}`}
          data-testid="project-budget"
        >
          {max === null
            ? t('usage.projectUnlimited', { spent: formatNumber(Number(project.total_tokens)) })
            : t('usage.project', {
                spent: formatNumber(Number(project.total_tokens)),
                max: formatNumber(max),
              })}
        </p>
      )}
    </section>
  );
}

function UsageFlags({ line }: { line: Usage['by_agent_and_model'][number] }) {
  const flags = [
    Number(line.estimated_calls) > 0 ? t('usage.estimated', { count: line.estimated_calls }) : null,
    Number(line.refused_calls) > 0 ? t('usage.refused', { count: line.refused_calls }) : null,
    Number(line.failed_calls) > 0 ? t('usage.failed', { count: line.failed_calls }) : null,
    Number(line.interrupted_calls) > 0
      ? t('usage.interrupted', { count: line.interrupted_calls })
      : null,
  ].filter((flag) => flag !== null);
  return flags.length > 0 ? <span className="muted small block">{flags.join(' · ')}</span> : null;
}

/** The project's calls cut off by a stopped Forja: how many, and the tokens they count against the budget. */
function InterruptedNote({ usage }: { usage: Usage }) {
  const lines = usage.by_agent_and_model;
  const count = lines.reduce((sum, line) => sum + Number(line.interrupted_calls ?? 0), 0);
  if (count === 0) return null;
  const tokens = lines.reduce((sum, line) => sum + Number(line.interrupted_tokens ?? 0), 0);
  return (
    <p className="small" data-testid="usage-interrupted">
      {t('usage.interruptedNote', {
        count: formatNumber(count),
        tokens: formatNumber(tokens),
      })}
    </p>
  );
}
