import type { ConversationDependencies } from './conversation-dependencies.ts';
import { owedTurns } from './owed-turns.ts';
import { pickUpLane } from './run-agent-turn.ts';
import { SESSION_LANE } from './session-queue.ts';

/**
 * Takes over the lanes whose holder died or stopped renewing (ADR 0170): each is picked up in this process —
 * its lease taken with a new epoch, then what the log says it owes done (the interrupted turn goes on from the
 * log). A lane already being taken over here is not asked for twice. Returns the lanes it picked up.
 */
export function createLaneTakeover(dependencies: ConversationDependencies) {
  const inFlight = new Set<string>();
  return async (): Promise<Array<{ sessionId: string; lane: string }>> => {
    const leases = dependencies.leases;
    if (leases === undefined || !leases.shared) return [];
    const orphaned = (await leases.orphaned()).filter(
      ({ sessionId, lane }) => lane !== SESSION_LANE && !inFlight.has(`${sessionId}\u0000${lane}`),
    );
    for (const { sessionId, lane } of orphaned) {
      const key = `${sessionId}\u0000${lane}`;
      inFlight.add(key);
      dependencies.logger.warn(
        { session_id: sessionId, agent: lane },
        'taking over a lane whose process stopped renewing its lease',
      );
      void pickUpLane(dependencies, sessionId, lane)
        .catch(() => undefined)
        .finally(() => inFlight.delete(key));
    }
    // A dead process may also have left lanes of these sessions that owed a turn and were waiting for one of
    // its turn slots, holding no lease: the log says so (ADR 0345), so each is picked up too.
    for (const sessionId of new Set(orphaned.map((lane) => lane.sessionId)))
      void pickUpOwedLanes(dependencies, sessionId, inFlight).catch((error: unknown) =>
        dependencies.logger.error({ err: error, session_id: sessionId }, 'lane takeover crashed'),
      );
    return orphaned;
  };
}

async function pickUpOwedLanes(
  dependencies: ConversationDependencies,
  sessionId: string,
  inFlight: Set<string>,
): Promise<void> {
  const view = await dependencies.views.load(sessionId);
  const hasRuntime = (slug: string) => dependencies.catalog.get(slug) !== null;
  for (const { agent } of owedTurns(view.state, view.events, hasRuntime)) {
    const key = `${sessionId}\u0000${agent}`;
    if (inFlight.has(key) || dependencies.queue.busy(sessionId, agent)) continue;
    inFlight.add(key);
    void pickUpLane(dependencies, sessionId, agent, 'line')
      .catch(() => undefined)
      .finally(() => inFlight.delete(key));
  }
}
