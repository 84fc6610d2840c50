import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../database.ts';
import { appendEvents } from '../event-log/append-events.ts';
import { SESSION_EVENTS } from '../../domain/conversation/index.ts';

export interface Session {
  id: string;
  project_id: string;
  title: string | null;
  last_seq: number;
  created_at: string;
}

interface SessionRow extends Omit<Session, 'created_at'> {
  created_at: Date;
}

const COLUMNS =
  'id, project_id, title, (select coalesce(max(seq), 0) from session_events where session_id = sessions.id) as last_seq, created_at';
const toSession = (row: SessionRow): Session => ({
  ...row,
  last_seq: Number(row.last_seq),
  created_at: row.created_at.toISOString(),
});

/**
 * Creates a session and records `session.created` as its first event, in one transaction, so that the log
 * alone tells the whole story of the session.
 */
export async function createSession(
  database: Database,
  input: { projectId: string; title?: string | null },
): Promise<Session> {
  return database.transaction(async (transaction) => {
    const id = randomUUID();
    const title = input.title ?? null;
    await transaction.query('insert into sessions (id, project_id, title) values ($1, $2, $3)', [
      id,
      input.projectId,
      title,
    ]);
    const outcome = await appendEvents(
      transaction,
      id,
      [
        SESSION_EVENTS.sessionCreated.create('system', {
          v: 1,
          project_id: input.projectId,
          title,
        }),
      ],
      { expectedSeq: 0 },
      [],
      true,
    );
    if (!outcome.success)
      throw new Error(`could not record session.created: ${outcome.error.message}`);
    return (await findSession(transaction, id))!;
  });
}

export async function findSession(database: Queryable, id: string): Promise<Session | null> {
  const result = await database.query<SessionRow>(`select ${COLUMNS} from sessions where id = $1`, [
    id,
  ]);
  return result.rows[0] ? toSession(result.rows[0]) : null;
}

export async function listSessions(database: Queryable, projectId: string): Promise<Session[]> {
  const result = await database.query<SessionRow>(
    `select ${COLUMNS} from sessions where project_id = $1 order by created_at, id`,
    [projectId],
  );
  return result.rows.map(toSession);
}
