import { postJson } from '../../api/client.ts';
import { AnswerButtons } from '../../components/AnswerButtons.tsx';
import { focusNextAction } from '../needs-you/go-to.ts';
import { agentName } from '../../i18n/agent-name.ts';
import { hasMessage, t } from '../../i18n/t.ts';
import type { HandoffView } from '../fold/session-view.ts';

/**
 * Where the work passed from one agent to the next: a divider across the chat, with Accept / Reject while
 * the handoff is offered. The status shown comes from the log, so it changes live whoever acted.
 */
export function HandoffDivider({ handoff }: { handoff: HandoffView }) {
  const statusKey = `handoff.status.${handoff.status}`;

  const path = { id: handoff.id };
  const accept = () => postJson('/api/handoffs/{id}/accept', { path });
  const reject = (reason: string) =>
    postJson('/api/handoffs/{id}/reject', { path, body: { reason } });

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
        {handoff.decisions.length > 0 && (
          <div className="handoff-decisions" data-testid="handoff-decisions">
            <p className="small">
              {t('handoff.decisions', {
                agent: agentName(handoff.from),
                count: handoff.decisions.length,
              })}
            </p>
            <ul>
              {handoff.decisions.map((decision) => (
                <li key={decision.seq} data-testid="handoff-decision">
                  <strong>{decision.question}</strong> → {decision.answer}{' '}
                  <span className="muted small">({decision.reason})</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {handoff.reason && (
          <p className="muted small">{t('handoff.rejectedBecause', { reason: handoff.reason })}</p>
        )}
        <AnswerButtons
          waiting={handoff.status === 'offered'}
          yes={{ label: t('handoff.accept'), className: 'primary', testId: 'accept-handoff' }}
          no={{
            label: t('handoff.reject'),
            testId: 'reject-handoff',
            // The reason is required: the agent that sent the handoff is given it to act on.
            reason: {
              id: `reject-${handoff.id}`,
              label: t('handoff.reason.required'),
              testId: 'reject-reason-input',
              maxLength: 1000,
              required: true,
              placeholder: t('handoff.reason.placeholder'),
              confirmLabel: t('handoff.confirmReject'),
              confirmTestId: 'confirm-reject',
            },
          }}
          onYes={accept}
          onNo={reject}
          errorTestId="handoff-error"
          onAnswered={focusNextAction}
        />
      </div>
      <div className="divider-line" aria-hidden="true" />
    </li>
  );
}
