import { DEV_EVENT_TYPES, LINE_EVENT_TYPES } from '../../domain/line/index.ts';
import type { Queryable } from '../database.ts';
import { readProjectEvents } from './project-artifact-events.ts';

/**
 * The project's done tasks (ADR 0416): those a dev finished in a session whose line was merged into `main`.
 * A later session's line does not take them again, the agents read them as done, and their ids are not
 * declared again for new work.
 */
export async function readDoneTaskIds(
  database: Queryable,
  projectId: string,
): Promise<Set<string>> {
  const events = await readProjectEvents(database, projectId, [
    DEV_EVENT_TYPES.taskFinished,
    LINE_EVENT_TYPES.mergedIntoMain,
  ]);
  const mergedSessions = new Set(
    events
      .filter((event) => event.type === LINE_EVENT_TYPES.mergedIntoMain)
      .map((event) => event.session_id),
  );
  return new Set(
    events
      .filter(
        (event) =>
          event.type === DEV_EVENT_TYPES.taskFinished && mergedSessions.has(event.session_id),
      )
      .map((event) => (event.payload as { task_id: string }).task_id),
  );
}
