import { lazy, Suspense, useState } from 'react';
import { agentName } from '../../i18n/agent-name.ts';
import { hasMessage, t } from '../../i18n/t.ts';
import { CommitLink } from '../../production/CommitLink.tsx';
import type { ActionDecision, Step } from '../fold/session-view.ts';

/** What a step did (diffs, highlighted output): loaded when a step is first opened (ADR 0424). */
const StepDetailView = lazy(() =>
  import('./StepDetail.tsx').then((module) => ({ default: module.StepDetailView })),
);

/** A step in plain words: known tools have a label; any other is "a step" (tool names are for the model). */
export function stepLabel(tool: string): string {
  const key = `step.${tool}`;
  return hasMessage(key) ? t(key) : t('step.other');
}

/** The tools one turn used, as one row that opens to the list of steps; each step opens to what it did. */
export function StepsRow({ seq, agent, steps }: { seq: number; agent: string; steps: Step[] }) {
  const refused = steps.filter((step) => !step.ok).length;
  return (
    <li className="steps-row" data-testid="steps-row" data-seq={seq} data-agent={agent}>
      <details>
        <summary>
          {t('steps.summary', { agent: agentName(agent), count: steps.length })}
          {refused > 0 && (
            <span className="steps-refused"> · {t('steps.refused', { count: refused })}</span>
          )}
        </summary>
        <ol className="steps">
          {steps.map((step) => (
            <StepItem key={step.seq} step={step} />
          ))}
        </ol>
      </details>
    </li>
  );
}

/** One step: its label (refused, committed), opening to its content, drawn only once opened (a diff costs). */
function StepItem({ step }: { step: Step }) {
  const [open, setOpen] = useState(false);
  return (
    <li
      data-testid="step"
      data-tool={step.tool}
      data-seq={step.seq}
      className={step.ok ? undefined : 'refused'}
    >
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary data-testid="step-summary">
          {stepLabel(step.tool)}
          {!step.ok && ` — ${t('step.wasRefused')}`}
          {step.decision !== null && ` · ${decisionText(step.decision)}`}
        </summary>
        {open && (
          <Suspense fallback={<p className="muted small">{t('common.loading')}</p>}>
            <div className="step-body" data-testid="step-body">
              {step.decision !== null && (
                <p className="step-decision" data-testid="step-decision">
                  {decisionText(step.decision)}
                </p>
              )}
              <StepDetailView step={step} />
            </div>
          </Suspense>
        )}
      </details>
      {step.commit !== undefined && (
        <>
          {' · '}
          <CommitLink sha={step.commit} />
        </>
      )}
    </li>
  );
}

/** "Approved by ana" / "Denied by ana: too risky". */
export function decisionText(decision: ActionDecision): string {
  const by = { by: decision.by };
  if (decision.verdict === 'approved') return t('step.approvedBy', by);
  return decision.reason === null
    ? t('step.deniedBy', by)
    : t('step.deniedByWhy', { ...by, reason: decision.reason });
}
