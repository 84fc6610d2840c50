import { devBlocks } from '../agents/index.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';
import type { LaneTurns } from './lane-turns.ts';
import { SESSION_LANE } from './session-queue.ts';
import { LINE_EVENTS } from '../domain/line/index.ts';

/**
 * The block loop (ADR 0110), looked at after every turn of a session with blocks: a block the Arquiteto has
 * not had a turn for starts (or queues) a turn in the Arquiteto's lane, whose task state names the blocked
 * dev, the module and what is missing; a block the Arquiteto resolved (a newer `module_contracts` version,
 * or `answer_block`) is recorded as `dev.unblocked` and gives the dev's lane a turn whose task state says
 * what changed. Decided from the log alone, in the session lane, so two looks never route a block twice.
 * Enqueued at once, so `idle(sessionId)` waits for the turns it starts.
 */
export function routeBlocks(
  dependencies: ConversationDependencies,
  sessionId: string,
  projectId: string,
  turns: LaneTurns,
): void {
  const routed = dependencies.queue.enqueue(sessionId, SESSION_LANE, async () => {
    const view = await dependencies.views.load(sessionId);
    const blocks = devBlocks(view.events);
    const resolved = blocks.filter((block) => block.status === 'resolved');
    if (resolved.length > 0) {
      // A resolved block always has its resolution; the type cannot say so.
      const events = resolved.flatMap(({ resolution, ...block }) =>
        resolution === null
          ? []
          : [
              LINE_EVENTS.devUnblocked.create('system', {
                v: 1,
                agent: block.agent,
                module: block.module,
                modulo: block.modulo,
                falta: block.falta,
                block_seq: block.seq,
                resolution,
              }),
            ],
      );
      const appended = await dependencies.eventLog.append(sessionId, events);
      if (!appended.success)
        throw new Error(`could not record dev.unblocked: ${appended.error.message}`);
      await dependencies.views.load(sessionId);
    }
    const lanes = [...new Set(resolved.map((block) => block.agent))];
    if (blocks.some((block) => block.status === 'open' && block.arquiteto_turns === 0))
      lanes.push('arquiteto');
    for (const agent of lanes) {
      void turns
        .inLane(dependencies, sessionId, agent, 'line', () =>
          // Decided again in the lane from the log: a block or an unblock another look gave its turn is not doubled.
          turns.startAndContinue(dependencies, {
            sessionId,
            projectId,
            agent,
            kind: 'message',
            onlyIfOwed: true,
          }),
        )
        .catch((error: unknown) =>
          dependencies.logger.error(
            { err: error, session_id: sessionId, agent },
            'block turn crashed',
          ),
        );
    }
  });
  routed.catch((error: unknown) =>
    dependencies.logger.error({ err: error, session_id: sessionId }, 'block routing crashed'),
  );
}
