import { Markdown } from '../../components/Markdown.tsx';
import { agentName } from '../../i18n/agent-name.ts';

type AgentMessageProps = { seq: number; agent: string; text: string; tools: string[] };

/** What an agent said (stored). The tools it called are in the turn's steps row, not here. */
export function AgentMessage({ seq, agent, text }: AgentMessageProps) {
  if (text.trim() === '') return null;
  return (
    <li className="message agent" data-testid="message-agent" data-seq={seq} data-agent={agent}>
      <span className="author">{agentName(agent)}</span>
      <Markdown text={text} />
    </li>
  );
}
