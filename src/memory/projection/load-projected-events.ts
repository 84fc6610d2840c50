import type { Queryable } from '../../store/index.ts';
import type { ProjectedEvent } from './projected-event.ts';

interface ProjectedEventRow {
  id: string;
  session_id: string;
  project_id: string;
  seq: number;
  type: string;
  actor: string;
  payload: unknown;
  created_at: Date | string;
}

const COLUMNS = 'e.id, e.session_id, s.project_id, e.seq, e.type, e.actor, e.payload, e.created_at';

/** The event an outbox row names, with its project; null when there is no such event. */
export async function loadProjectedEvent(
  database: Queryable,
  eventId: string,
): Promise<ProjectedEvent | null> {
  const rows = await database.query<ProjectedEventRow>(
    `select ${COLUMNS} from session_events e join sessions s on s.id = e.session_id where e.id = $1`,
    [eventId],
  );
  return rows.rows[0] === undefined ? null : toProjectedEvent(rows.rows[0]);
}

/** A page of the events of the given types (and type prefixes), in (session, seq) order after `after`. */
export async function loadProjectedEventsPage(
  database: Queryable,
  filter: { types: readonly string[]; prefixes: readonly string[] },
  after: { sessionId: string; seq: number } | null,
  limit: number,
): Promise<ProjectedEvent[]> {
  const rows = await database.query<ProjectedEventRow>(
    `select ${COLUMNS} from session_events e join sessions s on s.id = e.session_id
     where (e.type = any($1::text[]) or e.type like any($2::text[]))
       and ($3::uuid is null or (e.session_id, e.seq) > ($3::uuid, $4::integer))
     order by e.session_id, e.seq limit $5`,
    [
      filter.types,
      filter.prefixes.map((prefix) => `${prefix}%`),
      after?.sessionId ?? null,
      after?.seq ?? 0,
      limit,
    ],
  );
  return rows.rows.map(toProjectedEvent);
}

function toProjectedEvent(row: ProjectedEventRow): ProjectedEvent {
  return {
    id: row.id,
    session_id: row.session_id,
    project_id: row.project_id,
    seq: Number(row.seq),
    type: row.type,
    actor: row.actor,
    payload: row.payload,
    created_at:
      row.created_at instanceof Date
        ? row.created_at.toISOString()
        : new Date(row.created_at).toISOString(),
  };
}

/** The events of the given ids, with their projects, in no particular order. */
export async function loadProjectedEventsById(
  database: Queryable,
  eventIds: readonly string[],
): Promise<ProjectedEvent[]> {
  if (eventIds.length === 0) return [];
  const rows = await database.query<ProjectedEventRow>(
    `select ${COLUMNS} from session_events e join sessions s on s.id = e.session_id where e.id = any($1::uuid[])`,
    [eventIds],
  );
  return rows.rows.map(toProjectedEvent);
}
