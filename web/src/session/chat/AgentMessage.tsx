import { Markdown } from '../../components/Markdown.tsx';
import { agentName } from '../../i18n/agent-name.ts';
import { t } from '../../i18n/t.ts';

type AgentMessageProps = { seq: number; agent: string; text: string; tools: string[] };

/** What an agent said (stored), with the tools it called in that step. */
export function AgentMessage({ seq, agent, text, tools }: AgentMessageProps) {
  return (
    <li className="message agent" data-testid="message-agent" data-seq={seq} data-agent={agent}>
      <span className="author">
        {agentName(agent)} <span className="seq">#{seq}</span>
      </span>
      {text.trim() !== '' && <Markdown text={text} />}
      {tools.length > 0 && <p className="tools muted small">{t('chat.usedTools', { tools: tools.join(', ') })}</p>}
    </li>
  );
}
