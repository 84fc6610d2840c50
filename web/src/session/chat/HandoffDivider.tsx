import { useState, type FormEvent } from 'react';
import { postJson } from '../../api/client.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { agentName } from '../../i18n/agent-name.ts';
import { hasMessage, t } from '../../i18n/t.ts';
import type { HandoffView } from '../fold/session-view.ts';

/**
 * Where the work passed from one agent to the next: a divider across the chat, with Accept / Reject while
 * the handoff is offered. The status shown comes from the log, so it changes live whoever acted.
 */
export function HandoffDivider({ handoff }: { handoff: HandoffView }) {
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const statusKey = `handoff.status.${handoff.status}`;

  const act = async (verb: 'accept' | 'reject', body?: unknown) => {
    setBusy(true);
    setError(null);
    try {
      await postJson(`/api/handoffs/${encodeURIComponent(handoff.id)}/${verb}`, body);
      setRejecting(false);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const reject = (event: FormEvent) => {
    event.preventDefault();
    // The reason is required: the agent that sent the handoff is given it to act on.
    if (reason.trim() === '') return;
    void act('reject', { reason: reason.trim() });
  };

  return (
    <li
      className={`handoff-divider status-${handoff.status}`}
      data-testid="handoff-divider"
      data-handoff-id={handoff.id}
      data-status={handoff.status}
    >
      <div className="divider-line" aria-hidden="true" />
      <div className="handoff-body">
        <strong>
          {t('handoff.divider', { from: agentName(handoff.from), to: agentName(handoff.to) })}
        </strong>{' '}
        <span className="handoff-status" data-testid="handoff-status">
          {hasMessage(statusKey) ? t(statusKey) : handoff.status}
        </span>
        {handoff.reason && (
          <p className="muted small">{t('handoff.rejectedBecause', { reason: handoff.reason })}</p>
        )}
        {handoff.status === 'offered' && !rejecting && (
          <div className="row buttons">
            <button
              type="button"
              className="primary"
              data-testid="accept-handoff"
              disabled={busy}
              onClick={() => void act('accept')}
            >
              {t('handoff.accept')}
            </button>
            <button
              type="button"
              data-testid="reject-handoff"
              disabled={busy}
              onClick={() => setRejecting(true)}
            >
              {t('handoff.reject')}
            </button>
          </div>
        )}
        {handoff.status === 'offered' && rejecting && (
          <form className="inline-form" onSubmit={reject}>
            <label htmlFor={`reject-${handoff.id}`}>{t('handoff.reason.required')}</label>
            <div className="row">
              <input
                id={`reject-${handoff.id}`}
                data-testid="reject-reason-input"
                value={reason}
                maxLength={1000}
                required
                placeholder={t('handoff.reason.placeholder')}
                onChange={(event) => setReason(event.target.value)}
              />
              <button
                type="submit"
                className="danger"
                data-testid="confirm-reject"
                disabled={busy || reason.trim() === ''}
              >
                {t('handoff.confirmReject')}
              </button>
              <button type="button" onClick={() => setRejecting(false)} disabled={busy}>
                {t('common.cancel')}
              </button>
            </div>
          </form>
        )}
        {error !== null && <ErrorMessage error={error} testId="handoff-error" />}
      </div>
      <div className="divider-line" aria-hidden="true" />
    </li>
  );
}
