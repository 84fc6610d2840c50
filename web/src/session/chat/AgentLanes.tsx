import { agentName } from '../../i18n/agent-name.ts';
import { t } from '../../i18n/t.ts';
import type { AgentLane } from '../fold/session-view.ts';

/** One chip per active agent with what its lane is doing: working, waiting for you, blocked, idle or done. */
export function AgentLanes({ lanes }: { lanes: AgentLane[] }) {
  if (lanes.length === 0) return null;
  return (
    <ul className="agent-lanes" data-testid="agent-lanes" aria-label={t('lanes.title')}>
      {lanes.map((lane) => (
        <li
          key={lane.agent}
          className={`agent-lane status-${lane.status}`}
          data-testid="agent-status"
          data-agent={lane.agent}
          data-status={lane.status}
        >
          <span className="author">{agentName(lane.agent)}</span>{' '}
          <span className="status">{t(`lanes.status.${lane.status}`)}</span>
        </li>
      ))}
    </ul>
  );
}
