import type { AgentModel } from '../../api/types.ts';
import { agentName } from '../../i18n/agent-name.ts';
import { t } from '../../i18n/t.ts';

/**
 * Which model each agent uses (`FORJA_MODEL_<AGENT>`, else `FORJA_MODEL`), shown only when they differ: when
 * one model serves every agent, the page header already says which.
 */
export function AgentModels({ models }: { models: AgentModel[] | undefined }) {
  if (models === undefined || new Set(models.map(label)).size <= 1) return null;
  return (
    <details className="agent-models small" data-testid="agent-models">
      <summary>{t('usage.models')}</summary>
      <ul>
        {models.map((entry) => (
          <li key={entry.agent} data-agent={entry.agent} title={entry.variable}>
            {entry.agent === 'dev' ? t('agent.devs') : agentName(entry.agent)}: {label(entry)}
          </li>
        ))}
      </ul>
    </details>
  );
}

function label(entry: AgentModel): string {
  return entry.configured ? `${entry.provider} · ${entry.model}` : t('usage.modelNone');
}
