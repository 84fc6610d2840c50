import type { Handoff } from '../../domain/handoffs/index.ts';
import type { Queryable } from '../database.ts';

const COLUMNS = 'id, session_id, from_agent, to_agent, artifact_id, status';

/** Inserts a new handoff (status offered); its `handoff.offered` event goes in the same transaction. */
export async function insertHandoff(transaction: Queryable, handoff: Handoff): Promise<void> {
  await transaction.query(`insert into handoffs (${COLUMNS}) values ($1, $2, $3, $4, $5, $6)`, [
    handoff.id,
    handoff.session_id,
    handoff.from_agent,
    handoff.to_agent,
    handoff.artifact_id,
    handoff.status,
  ]);
}

/** Reads a handoff and locks its row until the transaction ends, so two transitions cannot race. */
export async function lockHandoff(transaction: Queryable, id: string): Promise<Handoff | null> {
  const result = await transaction.query<Handoff>(
    `select ${COLUMNS} from handoffs where id = $1 for update`,
    [id],
  );
  return result.rows[0] ?? null;
}

export async function updateHandoffStatus(transaction: Queryable, handoff: Handoff): Promise<void> {
  await transaction.query('update handoffs set status = $2, updated_at = now() where id = $1', [
    handoff.id,
    handoff.status,
  ]);
}

export async function listHandoffs(database: Queryable, sessionId: string): Promise<Handoff[]> {
  const result = await database.query<Handoff>(
    `select ${COLUMNS} from handoffs where session_id = $1 order by offered_order`,
    [sessionId],
  );
  return result.rows;
}
