import { t } from '../i18n/t.ts';
import { LINE_STAGES, type LineStage } from './fold/line-stage.ts';

/**
 * Idea → Brief → Backlog → Architecture → Developers → Merged, with the session's stage marked; once the line
 * is merged into main (`merged`), every step is done.
 */
export function LineStepper({ stage, merged = false }: { stage: LineStage; merged?: boolean }) {
  const at = merged ? LINE_STAGES.length : LINE_STAGES.indexOf(stage);
  return (
    <nav
      aria-label={t('stepper.label')}
      className="line-stepper"
      data-testid="line-stepper"
      data-stage={merged ? 'merged' : stage}
      data-merged={merged}
    >
      <ol>
        {LINE_STAGES.map((name, index) => (
          <li
            key={name}
            className={index < at ? 'done' : index === at ? 'current' : 'next'}
            aria-current={index === at ? 'step' : undefined}
          >
            {t(`stepper.${name}`)}
          </li>
        ))}
      </ol>
    </nav>
  );
}
