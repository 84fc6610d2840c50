import { Markdown } from '../../components/Markdown.tsx';
import { t } from '../../i18n/t.ts';
import type { ProductBrief } from '../fold/session-view.ts';

/** The consolidated product brief, as the PO receives it. */
export function BriefCard({ brief }: { brief: ProductBrief | null }) {
  if (brief === null) {
    return (
      <section className="panel" data-testid="brief-panel">
        <h2>{t('brief.title')}</h2>
        <p className="muted">{t('brief.empty')}</p>
      </section>
    );
  }
  const list = (key: 'brief.goals' | 'brief.outOfScope' | 'brief.openQuestions', items: string[]) =>
    items.length > 0 && (
      <>
        <dt>{t(key)}</dt>
        <dd>
          <ul>
            {items.map((item, index) => (
              <li key={index}>{item}</li>
            ))}
          </ul>
        </dd>
      </>
    );
  return (
    <section
      className="panel brief"
      data-testid="product-brief"
      data-seq={brief.seq}
      data-version={brief.version}
    >
      <h2>
        {t('brief.title')}{' '}
        <span className="muted small" data-testid="product-brief-version">
          {t('brief.version', { version: brief.version })}
        </span>
      </h2>
      <h3 data-testid="product-brief-title">{brief.title}</h3>
      <dl>
        <dt>{t('brief.summary')}</dt>
        <dd>
          <Markdown text={brief.summary} />
        </dd>
        <dt>{t('brief.problem')}</dt>
        <dd>
          <Markdown text={brief.problem} />
        </dd>
        <dt>{t('brief.audience')}</dt>
        <dd>
          <Markdown text={brief.audience} />
        </dd>
        {list('brief.goals', brief.goals)}
        {list('brief.outOfScope', brief.outOfScope)}
        {list('brief.openQuestions', brief.openQuestions)}
      </dl>
      {brief.ruleRefs.length > 0 && (
        <p className="muted small">{t('brief.rules', { count: brief.ruleRefs.length })}</p>
      )}
    </section>
  );
}
