import { t } from '../../i18n/t.ts';
import { currentRules } from '../fold/apply-artifact.ts';
import type { BusinessRule } from '../fold/session-view.ts';
import { RuleCard } from './RuleCard.tsx';

export function RulesPanel({ rules }: { rules: BusinessRule[] }) {
  return (
    <section className="panel" data-testid="rules-panel">
      <h2>
        {t('rules.title')} <span className="count">{currentRules(rules).length}</span>
      </h2>
      {rules.length === 0 ? (
        <p className="muted">{t('rules.empty')}</p>
      ) : (
        <ul className="cards">
          {rules.map((rule) => (
            <RuleCard key={rule.seq} rule={rule} />
          ))}
        </ul>
      )}
    </section>
  );
}
