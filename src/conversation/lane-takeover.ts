import type { ConversationDependencies } from './conversation-dependencies.ts';
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
    return orphaned;
  };
}
