import type { Queryable } from '../database.ts';

export interface AgentInstructions {
  project_id: string;
  agent: string;
  content: string;
  updated_at: string;
}

/** The agent's instruction patch for a project, the highest-priority instruction source (record ADR 0006). */
export async function readAgentInstructions(
  database: Queryable,
  projectId: string,
  agent: string,
): Promise<AgentInstructions | null> {
  const result = await database.query<Omit<AgentInstructions, 'updated_at'> & { updated_at: Date }>(
    'select project_id, agent, content, updated_at from agent_instructions where project_id = $1 and agent = $2',
    [projectId, agent],
  );
  const row = result.rows[0];
  return row ? { ...row, updated_at: row.updated_at.toISOString() } : null;
}

/** Replaces the patch; an empty content removes it. */
export async function writeAgentInstructions(
  database: Queryable,
  projectId: string,
  agent: string,
  content: string,
): Promise<void> {
  if (content.trim() === '') {
    await database.query('delete from agent_instructions where project_id = $1 and agent = $2', [
      projectId,
      agent,
    ]);
    return;
  }
  await database.query(
    `insert into agent_instructions (project_id, agent, content) values ($1, $2, $3)
     on conflict (project_id, agent) do update set content = excluded.content, updated_at = now()`,
    [projectId, agent, content],
  );
}
