import { agentName } from '../i18n/agent-name.ts';
import { t } from '../i18n/t.ts';
import type { DevProgress } from '../session/fold/session-view.ts';
import { CommitLink } from './CommitLink.tsx';
import type { DevStatus } from './dev-status.ts';

const LAST_SAID_CHARACTERS = 280;

/** One dev agent: status, tasks finished out of its module's tasks, blocks it reported, what it said last. */
export function DevCard({
  progress,
  status,
  taskCount,
}: {
  progress: DevProgress;
  status: DevStatus;
  taskCount: number;
}) {
  const done = progress.finished.length;
  const lastSaid =
    progress.lastSaid && progress.lastSaid.length > LAST_SAID_CHARACTERS
      ? `${progress.lastSaid.slice(0, LAST_SAID_CHARACTERS)}…`
      : progress.lastSaid;
  return (
    <li
      className={`card dev status-${status}`}
      data-testid="dev-card"
      data-agent={progress.agent}
      data-status={status}
    >
      <h3>
        {agentName(progress.agent)}{' '}
        <span className={`badge status-${status}`}>{t(`devs.status.${status}`)}</span>
      </h3>
      <p className="small">
        {taskCount > 0
          ? t('devs.progress', { done, total: taskCount })
          : t('devs.progressNoTasks', { done })}
      </p>
      {taskCount > 0 && (
        <progress
          max={taskCount}
          value={Math.min(done, taskCount)}
          aria-label={t('devs.progress', { done, total: taskCount })}
        />
      )}
      {progress.blocks.length > 0 && (
        <>
          <h4>{t('devs.blocks')}</h4>
          <ul className="small">
            {progress.blocks.map((block) => (
              <li key={block.seq} data-testid="dev-block">
                {t('devs.block', { modulo: block.modulo, falta: block.falta })}
              </li>
            ))}
          </ul>
        </>
      )}
      {progress.finished.length > 0 && (
        <>
          <h4>{t('devs.finished')}</h4>
          <ul className="small">
            {progress.finished.map((finish) => (
              <li key={finish.seq} data-testid="dev-finished">
                {t('devs.finishedItem', {
                  task:
                    [finish.taskId, finish.summary].filter(Boolean).join(' — ') || `#${finish.seq}`,
                })}
                {finish.commit !== null && (
                  <>
                    {' · '}
                    <CommitLink sha={finish.commit} />
                  </>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {progress.failures > 0 && (
        <p className="error small">{t('devs.failures', { count: progress.failures })}</p>
      )}
      {lastSaid && (
        <p className="muted small">
          {t('devs.lastSaid')}: {lastSaid}
        </p>
      )}
    </li>
  );
}
