import { agentName } from '../../i18n/agent-name.ts';
import { t } from '../../i18n/t.ts';

/**
 * Criativo's first bubble when it joins: the greeting recorded with its activation (ADR 0419), never sent to
 * the model; a log from before greetings were recorded shows the page's own words (ADR 0190).
 */
export function CriativoGreeting({ seq, recorded }: { seq: number; recorded: string | null }) {
  return (
    <li
      className="message agent greeting"
      data-testid="criativo-greeting"
      data-after-seq={seq}
      data-agent="criativo"
    >
      <span className="author">{agentName('criativo')}</span>
      <p>{recorded ?? t('greeting.criativo')}</p>
    </li>
  );
}
