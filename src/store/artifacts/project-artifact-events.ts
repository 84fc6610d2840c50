import type { SessionEvent } from '../../domain/conversation/index.ts';
import type { Queryable } from '../database.ts';
import { toSessionEvent, type SessionEventRow } from '../event-log/session-event-row.ts';

/**
 * Every `artifact.<type>` event of the given types in all sessions of a project, in the order they were
 * recorded (time, then session, then seq): what the project-wide readers fold. The record ADR 0200 readers are
 * scoped to the project ("project from the route"), so an artifact declared in any session of the project
 * counts.
 */
export function readProjectArtifactEvents(
  database: Queryable,
  projectId: string,
  artifactTypes: readonly string[],
): Promise<SessionEvent[]> {
  return readProjectEvents(
    database,
    projectId,
    artifactTypes.map((type) => `artifact.${type}`),
  );
}

/** Every event of the given types in all sessions of a project, in the order they were recorded. */
export async function readProjectEvents(
  database: Queryable,
  projectId: string,
  eventTypes: readonly string[],
): Promise<SessionEvent[]> {
  if (eventTypes.length === 0) return [];
  const placeholders = eventTypes.map((_, index) => `$${index + 2}`).join(', ');
  const result = await database.query<SessionEventRow>(
    `select e.id, e.session_id, e.seq, e.type, e.actor, e.payload, e.created_at
     from session_events e join sessions s on s.id = e.session_id
     where s.project_id = $1 and e.type in (${placeholders})
     order by e.created_at, e.session_id, e.seq`,
    [projectId, ...eventTypes],
  );
  return result.rows.map(toSessionEvent);
}
