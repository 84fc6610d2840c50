import { postJson } from '../../api/client.ts';
import { AnswerButtons } from '../../components/AnswerButtons.tsx';
import { agentName } from '../../i18n/agent-name.ts';
import { hasMessage, t } from '../../i18n/t.ts';
import type { ActionView } from '../fold/session-view.ts';
import { ActionWhat } from './ActionWhat.tsx';
import { focusNextAction } from '../needs-you/go-to.ts';

/** A proposed tool call waiting for the person: what it would do, Approve, or Deny with an optional reason. */
export function PendingActionCard({ action }: { action: ActionView }) {
  const risky = action.risk?.risky === true;
  // Each rule's words from the catalogue (so they are translated); an unknown rule as the server wrote it.
  const why = (action.risk?.reasons ?? [])
    .map((reason) => {
      const key = `actions.risk.${reason.rule}`;
      return hasMessage(key) ? t(key) : reason.why;
    })
    .join('; ');
  const riskId = `risk-${action.id}`;

  const path = { id: action.id };
  const approve = () => postJson('/api/actions/{id}/approve', { path });
  const deny = (reason: string) =>
    postJson('/api/actions/{id}/deny', { path, body: reason === '' ? {} : { reason } });

  return (
    <li
      className={risky ? 'card action risky' : 'card action'}
      data-testid="pending-action"
      data-action-id={action.id}
      data-status={action.status}
      data-risky={risky}
      tabIndex={-1}
    >
      <h3>
        {action.tool === 'terminal'
          ? t('actions.asksCommand', { agent: agentName(action.agent) })
          : t('actions.asks', { agent: agentName(action.agent), tool: action.tool })}
      </h3>
      {risky && (
        <p className="risk-warning" id={riskId} data-testid="action-risk">
          <strong>{t('actions.risky')}</strong> {t('actions.riskyHint', { why })}
        </p>
      )}
      <ActionWhat action={action} />
      {action.status === 'approved' && (
        <p className="muted small">{t('actions.status.approved')}</p>
      )}
      <AnswerButtons
        waiting={action.status === 'proposed'}
        yes={{
          label: risky ? t('actions.approveRisky', { why }) : t('actions.approve'),
          className: risky ? 'danger' : 'primary',
          testId: 'approve-action',
          risky,
          ...(risky ? { describedBy: riskId } : {}),
        }}
        no={{
          label: t('actions.deny'),
          testId: 'deny-action',
          reason: {
            id: `deny-${action.id}`,
            label: t('actions.reason.label'),
            testId: 'deny-reason-input',
            maxLength: 2000,
            required: false,
            confirmLabel: t('actions.confirmDeny'),
            confirmTestId: 'confirm-deny',
          },
        }}
        onYes={approve}
        onNo={deny}
        errorTestId="action-error"
        onAnswered={focusNextAction}
      />
    </li>
  );
}
