import { ruleRevisionTurnsOwed, viewChangeTurnsOwed } from '../agents/index.ts';
import type { SessionEvent } from '../domain/conversation/index.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';
import type { LaneTurns } from './lane-turns.ts';
import { SESSION_LANE } from './session-queue.ts';

type Owed = (events: readonly SessionEvent[]) => string[];

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
  routeOwed(dependencies, { sessionId, projectId, turns }, viewChangeTurnsOwed, 'change notice');
}

/**
 * A revised business rule (ADR 0421) reaches the PO and the Arquiteto the same way: each owed a turn for it
 * (`ruleRevisionTurnsOwed`) gets one in its own lane, decided again there, so it runs once.
 */
export function routeRuleRevisions(
  dependencies: ConversationDependencies,
  sessionId: string,
  projectId: string,
  turns: LaneTurns,
): void {
  routeOwed(dependencies, { sessionId, projectId, turns }, ruleRevisionTurnsOwed, 'rule revision');
}

/** The turns `owedOf` reads from the log, each started in its agent's lane if still owed there. */
function routeOwed(
  dependencies: ConversationDependencies,
  where: { sessionId: string; projectId: string; turns: LaneTurns },
  owedOf: Owed,
  what: string,
): void {
  const { sessionId, projectId, turns } = where;
  const owed = (events: readonly SessionEvent[]) =>
    owedOf(events).filter((agent) => dependencies.catalog.get(agent) !== null);
  const routed = dependencies.queue.enqueue(sessionId, SESSION_LANE, async () => {
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
            `${what} turn crashed`,
          ),
        );
    }
  });
  routed.catch((error: unknown) =>
    dependencies.logger.error({ err: error, session_id: sessionId }, `${what} routing crashed`),
  );
}
