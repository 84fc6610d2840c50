import { useState, type FormEvent } from 'react';
import { postJson } from '../../api/client.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { agentName } from '../../i18n/agent-name.ts';
import { hasMessage, t } from '../../i18n/t.ts';
import type { ActionView } from '../fold/session-view.ts';

const MAX_ARGUMENT_CHARACTERS = 1200;

/** A proposed tool call waiting for the person: what it would do, Approve, or Deny with an optional reason. */
export function PendingActionCard({ action }: { action: ActionView }) {
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const args = JSON.stringify(action.args ?? {}, null, 2);
  const risky = action.risk?.risky === true;
  // Each rule's words from the catalogue (so they are translated); an unknown rule as the server wrote it.
  const why = (action.risk?.reasons ?? [])
    .map((reason) => {
      const key = `actions.risk.${reason.rule}`;
      return hasMessage(key) ? t(key) : reason.why;
    })
    .join('; ');
  const riskId = `risk-${action.id}`;

  const resolve = async (verb: 'approve' | 'deny', body?: unknown) => {
    setBusy(true);
    setError(null);
    try {
      await postJson(`/api/actions/${encodeURIComponent(action.id)}/${verb}`, body);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const deny = (event: FormEvent) => {
    event.preventDefault();
    void resolve('deny', reason.trim() === '' ? {} : { reason: reason.trim() });
  };

  return (
    <li
      className={risky ? 'card action risky' : 'card action'}
      data-testid="pending-action"
      data-action-id={action.id}
      data-status={action.status}
      data-risky={risky}
    >
      <h3>{t('actions.asks', { agent: agentName(action.agent), tool: action.tool })}</h3>
      {risky && (
        <p className="risk-warning" id={riskId} data-testid="action-risk">
          <strong>{t('actions.risky')}</strong> {t('actions.riskyHint', { why })}
        </p>
      )}
      <pre className="arguments">
        {args.length > MAX_ARGUMENT_CHARACTERS
          ? `${args.slice(0, MAX_ARGUMENT_CHARACTERS)}…`
          : args}
      </pre>
      {action.status === 'approved' && (
        <p className="muted small">{t('actions.status.approved')}</p>
      )}
      {action.status === 'proposed' && !denying && (
        <div className="row buttons">
          <button
            type="button"
            className={risky ? 'danger' : 'primary'}
            data-testid="approve-action"
            data-risky={risky}
            aria-describedby={risky ? riskId : undefined}
            disabled={busy}
            onClick={() => void resolve('approve')}
          >
            {risky ? t('actions.approveRisky', { why }) : t('actions.approve')}
          </button>
          <button
            type="button"
            data-testid="deny-action"
            disabled={busy}
            onClick={() => setDenying(true)}
          >
            {t('actions.deny')}
          </button>
        </div>
      )}
      {action.status === 'proposed' && denying && (
        <form className="inline-form" onSubmit={deny}>
          <label htmlFor={`deny-${action.id}`}>{t('actions.reason.label')}</label>
          <div className="row">
            <input
              id={`deny-${action.id}`}
              data-testid="deny-reason-input"
              value={reason}
              maxLength={2000}
              onChange={(event) => setReason(event.target.value)}
            />
            <button type="submit" className="danger" data-testid="confirm-deny" disabled={busy}>
              {t('actions.confirmDeny')}
            </button>
            <button type="button" onClick={() => setDenying(false)} disabled={busy}>
              {t('common.cancel')}
            </button>
          </div>
        </form>
      )}
      {error !== null && <ErrorMessage error={error} testId="action-error" />}
    </li>
  );
}
