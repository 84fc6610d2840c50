import { rejectionTurnsOwed } from '../domain/handoffs/index.ts';
import { findSession } from '../store/index.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';
import { inLane, startAndContinue, type TurnResult } from './run-agent-turn.ts';
import { SESSION_LANE } from './session-queue.ts';

/** What became of each sender's turn this call tried. */
export type ReturnedHandoff = { agent: string } & TurnResult;

/**
 * A rejected handoff goes back to its sender (ADR 0160): every agent owed a turn for a rejection
 * (`rejectionTurnsOwed`: a standing rejection newer than its last turn) gets a `message` turn in its own
 * lane, whose task state carries the person's reason (`agents/runtime/rejected-handoffs-note.ts`). Decided
 * from the log in the session lane and again in the agent's lane, so two looks never give the same
 * rejection two turns. Enqueued at once, so `idle(sessionId)` waits for the turns.
 */
export function returnRejectedHandoffs(
  dependencies: ConversationDependencies,
  sessionId: string,
): Promise<ReturnedHandoff[]> {
  const done = dependencies.queue
    .enqueue(sessionId, SESSION_LANE, async () => {
      const session = await findSession(dependencies.database, sessionId);
      if (session === null) return [];
      const owed = (events: Parameters<typeof rejectionTurnsOwed>[0]) =>
        rejectionTurnsOwed(events).filter((agent) => dependencies.catalog.get(agent) !== null);
      const view = await dependencies.views.load(sessionId);
      return owed(view.events).map((agent) =>
        inLane(
          dependencies,
          sessionId,
          agent,
          'line',
          async (): Promise<ReturnedHandoff | null> => {
            const now = await dependencies.views.load(sessionId);
            if (!owed(now.events).includes(agent)) return null;
            return {
              agent,
              ...(await startAndContinue(dependencies, {
                sessionId,
                projectId: session.project_id,
                agent,
                kind: 'message',
              })),
            };
          },
        ),
      );
    })
    .then(async (turns) =>
      (await Promise.all(turns)).filter((turn): turn is ReturnedHandoff => turn !== null),
    );
  done.catch((error: unknown) =>
    dependencies.logger.error(
      { err: error, session_id: sessionId },
      'returning a rejected handoff crashed',
    ),
  );
  return done;
}
