import {
  ARCHITECTURE_TYPES,
  currentArchitecture,
  type ProjectArchitecture,
} from '../../domain/architecture/index.ts';
import type { Queryable } from '../database.ts';
import { readProjectArtifactEvents } from './project-artifact-events.ts';

/** The project's current Arquiteto artifacts, read from the event log (no table: record ADR 0200). */
export async function readProjectArchitecture(
  database: Queryable,
  projectId: string,
): Promise<ProjectArchitecture> {
  return currentArchitecture(
    await readProjectArtifactEvents(database, projectId, ARCHITECTURE_TYPES),
  );
}
