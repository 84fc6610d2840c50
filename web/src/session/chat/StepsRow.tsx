import { agentName } from '../../i18n/agent-name.ts';
import { hasMessage, t } from '../../i18n/t.ts';
import { CommitLink } from '../../production/CommitDiff.tsx';
import type { Step } from '../fold/session-view.ts';

/** A step in plain words: known tools have a label; any other is "a step" (tool names are for the model). */
export function stepLabel(tool: string): string {
  const key = `step.${tool}`;
  return hasMessage(key) ? t(key) : t('step.other');
}

/** The tools one turn used, as one row that opens to the list of steps. */
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
            <li key={step.seq} data-testid="step" className={step.ok ? undefined : 'refused'}>
              {stepLabel(step.tool)}
              {!step.ok && ` — ${t('step.wasRefused')}`}
              {step.commit !== undefined && (
                <>
                  {' · '}
                  <CommitLink sha={step.commit} />
                </>
              )}
            </li>
          ))}
        </ol>
      </details>
    </li>
  );
}
