import type { Queryable } from '../../store/index.ts';
import { MEMORY_EVENT_TYPES } from '../../domain/memory/index.ts';

/** The competencies the project's person already has a profile for, read from the log (not the graph). */
export async function readProfiledCompetencies(
  database: Queryable,
  projectId: string,
): Promise<Array<{ competency: string }>> {
  const rows = await database.query<{ competency: string | null }>(
    `select distinct e.payload->>'competency' as competency from session_events e join sessions s on s.id = e.session_id
     where s.project_id = $1 and e.type = $2`,
    [projectId, MEMORY_EVENT_TYPES.anamneseProfileRecorded],
  );
  return rows.rows.flatMap((row) =>
    row.competency === null ? [] : [{ competency: row.competency }],
  );
}
