import { devBlocks, sessionProjectId } from '../agents/index.ts';
import { turnEndsSql, turnInProgress } from '../domain/conversation/index.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';
import { owedTurns, type OwedReason } from './owed-turns.ts';
import { routeBlocks } from './route-blocks.ts';
import {
  inLane,
  pickUpLane,
  startAndContinue,
  type TurnPriority,
  type TurnResult,
} from './run-agent-turn.ts';

/**
 * The sessions start-up looks at: every session not ended, and any session with a turn started that no later
 * event closes (the process stopped during it). What each lane owes is then decided by folding the log.
 */
const SESSIONS_TO_LOOK_AT = `
  select distinct e.session_id from session_events e
  where not exists (select 1 from session_events ended where ended.session_id = e.session_id and ended.type = 'session.ended')
  union
  select distinct started.session_id from session_events started
  where started.type = 'turn.started'
    and not exists (
      select 1 from session_events closed
      where closed.session_id = started.session_id and closed.seq > started.seq
        and closed.payload->>'turn_id' = started.payload->>'turn_id'
        and ${turnEndsSql('closed')}
    )`;

/** What start-up logs for a lane it picks up, by the first thing the lane owes. */
function why(inProgress: boolean, reasons: readonly OwedReason[]): string {
  if (inProgress) return 'resuming a turn interrupted by a stop';
  if (reasons.includes('message')) return 'answering a message left unanswered by a stop';
  if (reasons.length === 1 && reasons[0] === 'rejection')
    return 'returning a rejected handoff to its sender after a stop';
  return 'starting a turn a lane owed before a stop';
}

/**
 * At start-up: every lane that owes work according to its log (`owedTurns`, ADR 0345, and a turn in progress)
 * is picked up through the one lane pick-up path (`pickUpLane`, the same a lane taken over from a dead process
 * takes): a turn in progress resumes from the log, a message never answered gets its turn, a kickoff, an
 * unblocked dev, a merge that failed, a changed view, a dependency merged or a rejected handoff that was waiting for a turn slot when the process
 * died gets its turn, an open consolidation is closed. A block the Arquiteto resolved before the stop is
 * recorded and routed first. Each lane once, decided again in the lane (so a turn started since start-up is not
 * doubled), side by side up to the turn slots. With shared leases, a lane held by a live process is left to it.
 * Turns waiting for an approval stay paused.
 */
export async function resumeInterruptedTurns(
  dependencies: ConversationDependencies,
): Promise<Array<{ sessionId: string; agent: string; result: Promise<TurnResult> }>> {
  const resumed: Array<{ sessionId: string; agent: string; result: Promise<TurnResult> }> = [];
  const hasRuntime = (slug: string) => dependencies.catalog.get(slug) !== null;
  const sessions = await dependencies.database.query<{ session_id: string }>(SESSIONS_TO_LOOK_AT);
  for (const { session_id: sessionId } of sessions.rows) {
    const view = await dependencies.views.load(sessionId);
    const projectId = sessionProjectId(view);
    if (projectId !== null && devBlocks(view.events).some((b) => b.status === 'resolved'))
      routeBlocks(dependencies, sessionId, projectId, { inLane, startAndContinue });
    const lanes = new Map<string, { inProgress: boolean; reasons: OwedReason[] }>();
    for (const turn of view.state.turns_in_progress)
      lanes.set(turn.agent, { inProgress: true, reasons: [] });
    for (const { agent, reasons } of owedTurns(view.state, view.events, hasRuntime))
      lanes.set(agent, { inProgress: turnInProgress(view.state, agent) !== null, reasons });
    for (const [agent, { inProgress, reasons }] of lanes) {
      dependencies.logger.info(
        { session_id: sessionId, agent, owed: reasons },
        why(inProgress, reasons),
      );
      // The person's message does not wait for a turn slot; the line's work does.
      const priority: TurnPriority = !inProgress && reasons.includes('message') ? 'person' : 'line';
      resumed.push({
        sessionId,
        agent,
        result: pickUpLane(dependencies, sessionId, agent, priority),
      });
    }
  }
  return resumed;
}
