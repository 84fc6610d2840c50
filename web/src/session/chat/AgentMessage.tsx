import { Link } from '../../components/Link.tsx';
import { Markdown } from '../../components/Markdown.tsx';
import { turnTracePath } from '../../routing/match-route.ts';
import { agentName } from '../../i18n/agent-name.ts';
import { t } from '../../i18n/t.ts';
import { TurnControlButton } from './TurnControlButton.tsx';

type AgentMessageProps = {
  seq: number;
  agent: string;
  text: string;
  tools: string[];
  /** The turn this answer ended, opened in its trace (ADR 0411). */
  trace?: { sessionId: string; turnId: string };
  /** Set when this is the lane's last answer and may be regenerated (ADR 0220). */
  regenerate?: { sessionId: string; turnId: string };
  stopped?: boolean;
};

/** What an agent said (stored). The tools it called are in the turn's steps row, not here. */
export function AgentMessage({ seq, agent, text, trace, regenerate, stopped }: AgentMessageProps) {
  if (text.trim() === '') return null;
  return (
    <li
      className="message agent"
      data-testid="message-agent"
      data-seq={seq}
      data-agent={agent}
      data-stopped={stopped === true ? 'true' : undefined}
    >
      <span className="author">{agentName(agent)}</span>
      <Markdown text={text} />
      {stopped === true && <p className="muted stopped-note">{t('turn.stoppedNote')}</p>}
      {(regenerate !== undefined || trace !== undefined) && (
        <div className="message-actions">
          {trace !== undefined && (
            <Link to={turnTracePath(trace.sessionId, trace.turnId)} testId="turn-trace-link">
              {t('trace.open')}
            </Link>
          )}
          {regenerate !== undefined && (
            <TurnControlButton
              sessionId={regenerate.sessionId}
              turnId={regenerate.turnId}
              verb="regenerate"
            />
          )}
        </div>
      )}
    </li>
  );
}
