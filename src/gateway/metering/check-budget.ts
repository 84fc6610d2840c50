import type { Queryable } from '../../store/index.ts';
import type { BudgetFigures } from '../model-gateway.ts';

/**
 * Whether the project's budget would cover a call of `requestedTokens` now, without reserving or recording
 * anything: the same sum `forja_reserve_call` makes (settled spend plus open reservations plus this call), read
 * only. For a use case that must refuse before it stores anything; the reservation still decides for good.
 */
export async function checkBudget(
  database: Queryable,
  projectId: string,
  requestedTokens: number,
): Promise<{ ok: true } | { ok: false; figures: BudgetFigures }> {
  const result = await database.query<{
    max_tokens: string | number;
    spent_tokens: string | number;
    reserved_tokens: string | number;
  }>(
    `select b.max_tokens,
            (select coalesce(sum(u.input_tokens + u.output_tokens), 0) from token_usage u where u.project_id = b.project_id)::int8 as spent_tokens,
            (select coalesce(sum(u.reserved_tokens) filter (where u.outcome = 'reserved'), 0) from token_usage u where u.project_id = b.project_id)::int8 as reserved_tokens
       from project_budgets b where b.project_id = $1 and b.max_tokens is not null`,
    [projectId],
  );
  const row = result.rows[0];
  if (row === undefined) return { ok: true };
  const figures = {
    max_tokens: Number(row.max_tokens),
    spent_tokens: Number(row.spent_tokens),
    reserved_tokens: Number(row.reserved_tokens),
    requested_tokens: requestedTokens,
  };
  return figures.spent_tokens + figures.reserved_tokens + requestedTokens > figures.max_tokens
    ? { ok: false, figures }
    : { ok: true };
}
