import { agentName } from '../../i18n/agent-name.ts';
import { formatNumber } from '../../i18n/format-number.ts';
import { t } from '../../i18n/t.ts';
import type { ChatItem } from '../fold/session-view.ts';

/** The project's budget refused a model call: the figures, and what to do. */
export function BudgetRefusedNote({ item }: { item: Extract<ChatItem, { kind: 'budget' }> }) {
  return (
    <li className="system-note error" data-testid="budget-refused" data-seq={item.seq}>
      <span role="alert">
        {t('chat.budget', {
          agent: agentName(item.agent),
          spent: formatNumber(item.spent),
          reserved: formatNumber(item.reserved),
          requested: formatNumber(item.requested),
          max: formatNumber(item.max),
        })}
      </span>
    </li>
  );
}
