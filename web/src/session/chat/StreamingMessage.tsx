import { Markdown } from '../../components/Markdown.tsx';
import { agentName } from '../../i18n/agent-name.ts';
import type { LiveText } from '../stream-reducer.ts';
import { TurnControlButton } from './TurnControlButton.tsx';

/**
 * An agent's answer as it streams in, with Stop; the stored response replaces it. Not a live region: the
 * session's announcer says that the agent answers, not every token.
 */
export function StreamingMessage({ live, sessionId }: { live: LiveText; sessionId: string }) {
  return (
    <li
      className="message agent streaming"
      data-testid="streaming-message"
      data-turn-id={live.turnId}
      data-agent={live.agent}
    >
      <span className="author">{agentName(live.agent)}</span>
      <Markdown text={live.text} />
      <span className="cursor" aria-hidden="true" />
      <div className="message-actions">
        <TurnControlButton sessionId={sessionId} turnId={live.turnId} verb="stop" />
      </div>
    </li>
  );
}
