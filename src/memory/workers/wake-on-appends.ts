import type { Logger } from 'pino';
import { SESSION_EVENTS_CHANNEL, type Database } from '../../store/index.ts';

/**
 * Wakes `workers` whenever an append commits (every append notifies `forja_session_events`), so they drain at
 * once instead of at their next poll — the poll stays as the fallback for a notification that never came.
 * Appends notified while the connection was away wake them too, once it is back. When the database cannot
 * listen the workers only poll (logged). Resolves to the function that stops listening.
 */
export async function wakeOnAppends(
  database: Database,
  workers: ReadonlyArray<{ wake(): void }>,
  logger: Logger,
): Promise<(() => Promise<void>) | null> {
  const wakeAll = () => {
    for (const worker of workers) worker.wake();
  };
  try {
    return await database.listen(SESSION_EVENTS_CHANNEL, wakeAll, { restored: wakeAll });
  } catch (error) {
    logger.warn({ err: error }, 'the memory workers cannot listen for appends; they poll');
    return null;
  }
}
