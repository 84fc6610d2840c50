import {
  EARLIER_SESSION_TYPES,
  earlierSessions,
  type EarlierSession,
} from '../../domain/artifacts/index.ts';
import type { Queryable } from '../database.ts';
import { readProjectArtifactEvents } from './project-artifact-events.ts';

/**
 * The briefs and decisions of the project's sessions other than `sessionId` (ADR 0416), in the order they
 * were recorded: what a later session's Criativo, PO and Arquiteto read of the ones before it.
 */
export async function readEarlierSessions(
  database: Queryable,
  projectId: string,
  sessionId: string,
): Promise<EarlierSession[]> {
  return earlierSessions(
    await readProjectArtifactEvents(database, projectId, EARLIER_SESSION_TYPES),
    sessionId,
  );
}
