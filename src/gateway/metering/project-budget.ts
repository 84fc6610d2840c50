import type { Queryable } from '../../store/index.ts';

/** Sets (or, with null, removes) a project's token budget. */
export async function setProjectBudget(
  database: Queryable,
  projectId: string,
  maxTokens: number | null,
): Promise<void> {
  await database.query(
    `insert into project_budgets (project_id, max_tokens) values ($1, $2)
     on conflict (project_id) do update set max_tokens = excluded.max_tokens, updated_at = now()`,
    [projectId, maxTokens],
  );
}

export async function readProjectBudget(
  database: Queryable,
  projectId: string,
): Promise<number | null> {
  const result = await database.query<{ max_tokens: number | null }>(
    'select max_tokens from project_budgets where project_id = $1',
    [projectId],
  );
  return result.rows[0]?.max_tokens ?? null;
}
