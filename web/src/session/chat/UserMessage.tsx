import { memo } from 'react';
import { agentName } from '../../i18n/agent-name.ts';
import { t } from '../../i18n/t.ts';

/**
 * What the person wrote, and to whom when it named an agent. Memoised on its values (`language` included, so
 * a language switch re-renders it): a stored message never changes.
 */
export const UserMessage = memo(function UserMessage({
  seq,
  text,
  to = null,
}: {
  seq: number;
  text: string;
  to?: string | null;
  language?: string;
}) {
  return (
    <li
      className="message user"
      data-testid="message-user"
      data-seq={seq}
      data-to={to ?? undefined}
    >
      <span className="author">
        {t('chat.you')}
        {to !== null && (
          <span className="to"> · {t('chat.toAgent', { agent: agentName(to) })}</span>
        )}
      </span>
      <p className="text">{text}</p>
    </li>
  );
});
