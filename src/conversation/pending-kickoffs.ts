import {
  EVENT_TYPES,
  type ConversationState,
  type SessionEvent,
} from '../domain/conversation/index.ts';

/** Seq of each agent's last `turn.started`. */
function lastTurnStarts(events: readonly SessionEvent[]): Map<string, number> {
  const started = new Map<string, number>();
  for (const event of events) {
    if (event.type !== EVENT_TYPES.turnStarted) continue;
    const agent = (event.payload as { agent?: unknown }).agent;
    if (typeof agent === 'string') started.set(agent, event.seq);
  }
  return started;
}

/**
 * The agents waiting for their kickoff turn, in activation order: activated by an accepted handoff (so not
 * the user-started Criativo), with a runtime in this process, and with no `turn.started` of their own since
 * they were activated. Decided from the log alone, so a kickoff lost to a stop or to a lane still waiting for
 * a turn slot is found again by the next look.
 */
export function pendingKickoffs(
  state: ConversationState,
  events: readonly SessionEvent[],
  hasRuntime: (agent: string) => boolean,
): string[] {
  const started = lastTurnStarts(events);
  return state.active_agents
    .filter(
      (active) =>
        active.handoff_id !== null &&
        hasRuntime(active.agent) &&
        (started.get(active.agent) ?? 0) < active.seq,
    )
    .map((active) => active.agent);
}
