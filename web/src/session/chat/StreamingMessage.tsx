import { Markdown } from '../../components/Markdown.tsx';
import { agentName } from '../../i18n/agent-name.ts';
import type { LiveText } from '../stream-reducer.ts';

/** An agent's answer as it streams in; the stored response replaces it. */
export function StreamingMessage({ live }: { live: LiveText }) {
  return (
    <li
      className="message agent streaming"
      data-testid="streaming-message"
      data-turn-id={live.turnId}
      data-agent={live.agent}
      aria-live="polite"
    >
      <span className="author">{agentName(live.agent)}</span>
      <Markdown text={live.text} />
      <span className="cursor" aria-hidden="true" />
    </li>
  );
}
