import { agentName } from '../../i18n/agent-name.ts';
import { t } from '../../i18n/t.ts';
import type { OpenTurn } from '../fold/session-view.ts';

/** An agent's turn is open but nothing is streaming yet (or it waits for an approval). */
export function TurnIndicator({ turn }: { turn: OpenTurn }) {
  return (
    <li
      className="system-note thinking"
      data-testid={turn.paused ? 'waiting-approval' : 'thinking-indicator'}
      data-agent={turn.agent}
    >
      {turn.paused
        ? t('chat.waitingApproval', { agent: agentName(turn.agent) })
        : t('chat.thinking', { agent: agentName(turn.agent) })}
      {!turn.paused && <span className="dots" aria-hidden="true" />}
    </li>
  );
}
