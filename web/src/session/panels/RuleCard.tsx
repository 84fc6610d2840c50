import { agentName } from '../../i18n/agent-name.ts';
import { t } from '../../i18n/t.ts';
import type { BusinessRule } from '../fold/session-view.ts';

/**
 * One business rule, with the messages it came from. A version a revision replaced stays, marked and muted;
 * a revision names the version it replaced and who recorded it (ADR 0421).
 */
export function RuleCard({ rule }: { rule: BusinessRule }) {
  const superseded = rule.supersededBy !== null;
  return (
    <li
      className={superseded ? 'card rule superseded' : 'card rule'}
      data-testid="rule-card"
      data-seq={rule.seq}
      data-superseded={superseded}
    >
      <h3>{superseded ? <s>{rule.title}</s> : rule.title}</h3>
      <p>{rule.statement}</p>
      {superseded && (
        <p className="small" data-testid="rule-superseded">
          {t('rules.superseded')}
        </p>
      )}
      {rule.revises !== null && (
        <p className="muted small" data-testid="rule-revises">
          {t('rules.revises', { agent: agentName(rule.recordedBy) })}
        </p>
      )}
      {rule.origin.length > 0 && (
        <p className="muted small">
          {t('rules.origin', { seqs: rule.origin.map((seq) => `#${seq}`).join(', ') })}
        </p>
      )}
    </li>
  );
}
