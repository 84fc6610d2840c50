import { agentName } from '../../i18n/agent-name.ts';
import { formatNumber } from '../../i18n/format-number.ts';
import { t } from '../../i18n/t.ts';
import type { ChatItem } from '../fold/session-view.ts';

/**
 * Where the ContextManager summarised an agent's history: a divider after the last message it covers, the
 * summary on demand. The messages above stay in the log and on this page; the agent now reads the summary.
 */
export function CompactionDivider({ item }: { item: Extract<ChatItem, { kind: 'compaction' }> }) {
  return (
    <li
      className="compaction-divider"
      data-testid="compaction-divider"
      data-agent={item.agent}
      data-through-seq={item.throughSeq}
    >
      <div className="divider-line" aria-hidden="true" />
      <div className="compaction-body">
        <strong>
          {t('compaction.divider', { agent: agentName(item.agent), seq: item.throughSeq })}
        </strong>{' '}
        <span className="muted small">
          {t('compaction.tokens', {
            before: formatNumber(item.tokensBefore),
            after: formatNumber(item.tokensAfter),
          })}
        </span>
        <details>
          <summary>{t('compaction.show')}</summary>
          <p data-testid="compaction-summary">{item.summary}</p>
        </details>
      </div>
      <div className="divider-line" aria-hidden="true" />
    </li>
  );
}
