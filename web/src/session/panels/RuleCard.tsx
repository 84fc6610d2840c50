import { t } from '../../i18n/t.ts';
import type { BusinessRule } from '../fold/session-view.ts';

/** One business rule, with the messages it came from. */
export function RuleCard({ rule }: { rule: BusinessRule }) {
  return (
    <li className="card rule" data-testid="rule-card" data-seq={rule.seq}>
      <h3>{rule.title}</h3>
      <p>{rule.statement}</p>
      {rule.origin.length > 0 && (
        <p className="muted small">
          {t('rules.origin', { seqs: rule.origin.map((seq) => `#${seq}`).join(', ') })}
        </p>
      )}
    </li>
  );
}
