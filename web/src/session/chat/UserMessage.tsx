import { t } from '../../i18n/t.ts';

/** What the person wrote. */
export function UserMessage({ seq, text }: { seq: number; text: string }) {
  return (
    <li className="message user" data-testid="message-user" data-seq={seq}>
      <span className="author">
        {t('chat.you')} <span className="seq">#{seq}</span>
      </span>
      <p className="text">{text}</p>
    </li>
  );
}
