import { viewChangeTurnsOwed } from '../agents/index.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';
import type { LaneTurns } from './lane-turns.ts';
import { SESSION_LANE } from './session-queue.ts';

/**
 * Change notices (ADR 0340), looked at after every turn that leaves a dev lane owed one: each dev lane whose
 * view (its module's and its consumed modules' contract items, its check) a new contracts or module map
 * version changed after its last turn started gets a turn in its own lane whose task state lists what changed.
 * Queued in the session lane, behind the block routing of the same turn, so a dev unblocked by that version
 * hears of both in one turn; decided again in the dev's lane, so a lane already working gets the turn after
 * its current one, and once. Enqueued at once, so `idle(sessionId)` waits for the turns it starts.
 */
export function routeViewChanges(
  dependencies: ConversationDependencies,
  sessionId: string,
  projectId: string,
  turns: LaneTurns,
): void {
  const routed = dependencies.queue.enqueue(sessionId, SESSION_LANE, async () => {
    const owed = (events: Parameters<typeof viewChangeTurnsOwed>[0]) =>
      viewChangeTurnsOwed(events).filter((agent) => dependencies.catalog.get(agent) !== null);
    for (const agent of owed((await dependencies.views.load(sessionId)).events)) {
      void turns
        .inLane(dependencies, sessionId, agent, 'line', async () => {
          if (!owed((await dependencies.views.load(sessionId)).events).includes(agent)) return;
          await turns.startAndContinue(dependencies, {
            sessionId,
            projectId,
            agent,
            kind: 'message',
          });
        })
        .catch((error: unknown) =>
          dependencies.logger.error(
            { err: error, session_id: sessionId, agent },
            'change notice turn crashed',
          ),
        );
    }
  });
  routed.catch((error: unknown) =>
    dependencies.logger.error({ err: error, session_id: sessionId }, 'change routing crashed'),
  );
}
