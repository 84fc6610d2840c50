import { agentName } from '../../i18n/agent-name.ts';
import { t } from '../../i18n/t.ts';

/**
 * Criativo's first bubble when it joins: a fixed greeting from its identity, shown by the page and never
 * stored or sent to the model, so scripts, history and budgets are as they were (ADR 0190).
 */
export function CriativoGreeting({ seq }: { seq: number }) {
  return (
    <li
      className="message agent greeting"
      data-testid="criativo-greeting"
      data-after-seq={seq}
      data-agent="criativo"
    >
      <span className="author">{agentName('criativo')}</span>
      <p>{t('greeting.criativo')}</p>
    </li>
  );
}
