import { agentName } from '../../i18n/agent-name.ts';
import { currentLanguage } from '../../i18n/language.ts';
import { t } from '../../i18n/t.ts';

/**
 * Criativo's first bubble when it joins: the greeting recorded with its activation (ADR 0419), never sent to
 * the model. A page speaks one language (ADR 0185): a greeting recorded in another one, or a log from before
 * greetings were recorded, shows the page's own words (ADR 0190).
 */
export function CriativoGreeting({
  seq,
  recorded,
}: {
  seq: number;
  recorded: { language: string; text: string } | null;
}) {
  const text =
    recorded !== null && recorded.language === currentLanguage()
      ? recorded.text
      : t('greeting.criativo');
  return (
    <li
      className="message agent greeting"
      data-testid="criativo-greeting"
      data-after-seq={seq}
      data-agent="criativo"
    >
      <span className="author">{agentName('criativo')}</span>
      <p>{text}</p>
    </li>
  );
}
