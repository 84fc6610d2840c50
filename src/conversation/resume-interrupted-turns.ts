import type { ConversationDependencies } from './conversation-dependencies.ts';
import { pickUpLane, type TurnPriority, type TurnResult } from './run-agent-turn.ts';

/** What start-up found a lane may owe: the SQL below only narrows; `pendingLaneWork` decides in the lane. */
type Owed = { session_id: string; agent: string };

/** Lanes with a started turn that no later event closes (the process stopped during it). */
const TURNS_IN_PROGRESS = `
  select distinct started.session_id, started.payload->>'agent' as agent from session_events started
  where started.type = 'turn.started'
    and not exists (
      select 1 from session_events closed
      where closed.session_id = started.session_id and closed.seq > started.seq
        and closed.payload->>'turn_id' = started.payload->>'turn_id'
        and (closed.type in ('turn.failed', 'toolloop.limit_reached') or (closed.type = 'agent.response' and not closed.payload ? 'tool_calls'))
    )`;

/** Lanes with a message acknowledged (201) that no later turn of its addressee answers (ADR 0200). */
const UNANSWERED_MESSAGES = `
  select distinct m.session_id, m.payload->>'to' as agent from session_events m
  where m.type = 'chat.message' and m.payload ? 'to'
    and not exists (
      select 1 from session_events t
      where t.session_id = m.session_id and t.seq > m.seq and t.type = 'turn.started' and t.payload->>'agent' = m.payload->>'to'
    )`;

/** Senders of a rejected handoff that had no turn since the rejection (ADR 0160). */
const REJECTIONS_UNRETURNED = `
  select distinct r.session_id, r.payload->>'from_agent' as agent from session_events r
  where r.type = 'handoff.rejected'
    and not exists (
      select 1 from session_events t
      where t.session_id = r.session_id and t.seq > r.seq and t.type = 'turn.started' and t.payload->>'agent' = r.payload->>'from_agent'
    )`;

/** Dev lanes whose last turn started before a contracts or module map declaration (ADR 0340). */
const VIEWS_CHANGED = `
  select distinct t.session_id, t.payload->>'agent' as agent from session_events t
  where t.type = 'turn.started' and t.payload->>'agent' like 'dev:%'
    and exists (
      select 1 from session_events d
      where d.session_id = t.session_id and d.seq > t.seq and d.type in ('artifact.module_contracts', 'artifact.module_map')
    )
    and not exists (
      select 1 from session_events l
      where l.session_id = t.session_id and l.seq > t.seq and l.type = 'turn.started' and l.payload->>'agent' = t.payload->>'agent'
    )`;

/** Devs whose branch took a dependency's code (or could not) with no turn of theirs since (ADR 0343). */
const DEPENDENCIES_MERGED = `
  select distinct d.session_id, 'dev:' || (d.payload->>'module') as agent from session_events d
  where d.type = 'module.dependency_merged'
    and not exists (
      select 1 from session_events t
      where t.session_id = d.session_id and t.seq > d.seq and t.type = 'turn.started' and t.payload->>'agent' = 'dev:' || (d.payload->>'module')
    )`;

const LOOKS: ReadonlyArray<{ sql: string; priority: TurnPriority; log: string }> = [
  { sql: TURNS_IN_PROGRESS, priority: 'line', log: 'resuming a turn interrupted by a stop' },
  {
    sql: UNANSWERED_MESSAGES,
    priority: 'person',
    log: 'answering a message left unanswered by a stop',
  },
  {
    sql: REJECTIONS_UNRETURNED,
    priority: 'line',
    log: 'returning a rejected handoff to its sender after a stop',
  },
  {
    sql: VIEWS_CHANGED,
    priority: 'line',
    log: 'telling a dev what changed in its view after a stop',
  },
  {
    sql: DEPENDENCIES_MERGED,
    priority: 'line',
    log: "telling a dev its dependency's code reached its worktree after a stop",
  },
];

/**
 * At start-up: every lane that owes work according to its log is picked up through the one lane pick-up path
 * (`pickUpLane`, the same a lane taken over from a dead process takes): a turn in progress resumes from the log,
 * a message acknowledged but never answered gets its turn, the sender of a handoff rejected before its turn
 * began gets that turn, a dev whose view a new contracts or map version changed is told, and so is a dev whose branch took a
 * dependency's code, an open consolidation is closed. Each lane once, decided again in the lane (so a turn
 * started since start-up is not doubled), side by side up to the turn slots. With shared leases, a lane held by
 * a live process is left to it. Turns waiting for an approval stay paused.
 */
export async function resumeInterruptedTurns(
  dependencies: ConversationDependencies,
): Promise<Array<{ sessionId: string; agent: string; result: Promise<TurnResult> }>> {
  const resumed: Array<{ sessionId: string; agent: string; result: Promise<TurnResult> }> = [];
  const seen = new Set<string>();
  for (const look of LOOKS) {
    for (const { session_id: sessionId, agent } of (
      await dependencies.database.query<Owed>(look.sql)
    ).rows) {
      const key = `${sessionId}\u0000${agent}`;
      if (seen.has(key)) continue;
      seen.add(key);
      dependencies.logger.info({ session_id: sessionId, agent }, look.log);
      resumed.push({
        sessionId,
        agent,
        result: pickUpLane(dependencies, sessionId, agent, look.priority),
      });
    }
  }
  return resumed;
}
