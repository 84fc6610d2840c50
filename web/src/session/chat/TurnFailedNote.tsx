import { agentName } from '../../i18n/agent-name.ts';
import { hasMessage, t } from '../../i18n/t.ts';
import { TurnControlButton } from './TurnControlButton.tsx';

/** Why an agent did not answer, in words a person can act on. */
export function TurnFailedNote({
  seq,
  agent,
  reason,
  message,
  retry,
}: {
  seq: number;
  agent: string;
  reason: string;
  message: string;
  /** Set when the failed turn is its lane's last and may be retried (ADR 0220). */
  retry?: { sessionId: string; turnId: string };
}) {
  const key = `chat.failed.${reason}`;
  const variables = { agent: agentName(agent), reason, message };
  return (
    <li className="system-note error" data-testid="turn-failed" data-reason={reason} data-seq={seq}>
      {/* The alert inside the item: a list item with another role breaks the chat's list for screen readers. */}
      <span role="alert">
        {hasMessage(key) ? t(key, variables) : t('chat.failed.other', variables)}
      </span>
      {retry !== undefined && (
        <TurnControlButton sessionId={retry.sessionId} turnId={retry.turnId} verb="retry" />
      )}
    </li>
  );
}
