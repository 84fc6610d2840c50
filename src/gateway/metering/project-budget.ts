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

/** A project's budgets: in tokens and in US dollars (null: none). */
export interface ProjectBudget {
  max_tokens: number | null;
  max_usd: number | null;
}

/** Sets (or, with null, removes) a project's budget in US dollars; its token budget stays as it is. */
export async function setProjectMoneyBudget(
  database: Queryable,
  projectId: string,
  maxUsd: number | null,
): Promise<void> {
  await database.query(
    `insert into project_budgets (project_id, max_usd) values ($1, $2)
     on conflict (project_id) do update set max_usd = excluded.max_usd, updated_at = now()`,
    [projectId, maxUsd],
  );
}

export async function readProjectBudgets(
  database: Queryable,
  projectId: string,
): Promise<ProjectBudget> {
  const result = await database.query<{ max_tokens: number | null; max_usd: number | null }>(
    'select max_tokens, max_usd::float8 as max_usd from project_budgets where project_id = $1',
    [projectId],
  );
  const row = result.rows[0];
  return { max_tokens: row?.max_tokens ?? null, max_usd: row?.max_usd ?? null };
}
