import { t } from '../../i18n/t.ts';
import type { ActionView } from '../fold/session-view.ts';
import { PendingActionCard } from './PendingActionCard.tsx';

/** Proposed actions not settled yet: waiting for the person, or approved and running. */
export function PendingActionsPanel({ actions }: { actions: ActionView[] }) {
  const pending = actions.filter(
    (action) => action.status === 'proposed' || action.status === 'approved',
  );
  return (
    <section className="panel" data-testid="actions-panel">
      <h2>
        {t('actions.title')}{' '}
        {pending.length > 0 && <span className="count attention">{pending.length}</span>}
      </h2>
      {pending.length === 0 ? (
        <p className="muted">{t('actions.empty')}</p>
      ) : (
        <ul className="cards">
          {pending.map((action) => (
            <PendingActionCard key={action.id} action={action} />
          ))}
        </ul>
      )}
    </section>
  );
}
