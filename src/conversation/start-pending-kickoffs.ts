import { findSession } from '../store/index.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';
import { pendingKickoffs } from './pending-kickoffs.ts';
import { inLane, startAndContinue, type TurnResult } from './run-agent-turn.ts';
import { SESSION_LANE } from './session-queue.ts';

/** What became of each kickoff this call tried. */
export type KickoffResult = { agent: string } & TurnResult;

/**
 * Runs the kickoff turn of every agent activated by a handoff that has not had a turn yet (a `message` turn
 * whose task state is the agent's kickoff), each in its own lane: they run side by side up to the process's
 * turn slots, and the rest start as slots free up, in the order the agents were activated (the order
 * offered). A lane that was already kicked off by another look is skipped when its turn comes. Enqueued at
 * once, so `idle(sessionId)` waits for every kickoff.
 */
export function startPendingKickoffs(
  dependencies: ConversationDependencies,
  sessionId: string,
): Promise<KickoffResult[]> {
  const done = dependencies.queue
    .enqueue(sessionId, SESSION_LANE, async (): Promise<Array<Promise<KickoffResult | null>>> => {
      const session = await findSession(dependencies.database, sessionId);
      if (session === null) return [];
      const hasRuntime = (slug: string) => dependencies.catalog.get(slug) !== null;
      const view = await dependencies.views.load(sessionId);
      // Each lane asks for its slot in this loop's order, synchronously, so slots are granted in activation order.
      return pendingKickoffs(view.state, view.events, hasRuntime).map((agent) =>
        inLane(dependencies, sessionId, agent, 'line', async (): Promise<KickoffResult | null> => {
          const now = await dependencies.views.load(sessionId);
          if (!pendingKickoffs(now.state, now.events, hasRuntime).includes(agent)) return null;
          return {
            agent,
            ...(await startAndContinue(dependencies, {
              sessionId,
              projectId: session.project_id,
              agent,
              kind: 'message',
            })),
          };
        }),
      );
    })
    .then(async (kickoffs) =>
      (await Promise.all(kickoffs)).filter((result): result is KickoffResult => result !== null),
    );
  done.catch((error: unknown) =>
    dependencies.logger.error({ err: error, session_id: sessionId }, 'kickoff crashed'),
  );
  return done;
}
