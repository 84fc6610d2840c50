import { BACKLOG_TYPES, currentBacklog, type Backlog } from '../../domain/artifacts/index.ts';
import type { Queryable } from '../database.ts';
import { readProjectArtifactEvents } from './project-artifact-events.ts';

/** The project's backlog, from every session of the project. */
export async function readProjectBacklog(database: Queryable, projectId: string): Promise<Backlog> {
  return currentBacklog(await readProjectArtifactEvents(database, projectId, BACKLOG_TYPES));
}
