import type { Queryable } from '../../store/index.ts';
import type { BudgetFigures } from '../model-gateway.ts';
import { moneyFigures } from './reserve-call.ts';

/**
 * Whether the project's budgets would cover a call of `requestedTokens` (and `requestedUsd` at full price; null:
 * no price known) now, without reserving or recording anything: the same sums `forja_reserve_call` makes (settled
 * spend plus open reservations plus this call), read only. For a use case that must refuse before it stores
 * anything; the reservation still decides for good.
 */
export async function checkBudget(
  database: Queryable,
  projectId: string,
  requestedTokens: number,
  requestedUsd: number | null = null,
): Promise<{ ok: true } | { ok: false; figures: BudgetFigures }> {
  const result = await database.query<{
    max_tokens: string | number | null;
    spent_tokens: string | number;
    reserved_tokens: string | number;
    max_usd: number | null;
    spent_usd: number;
    reserved_usd: number;
  }>(
    `select b.max_tokens, b.max_usd::float8 as max_usd,
            (select coalesce(sum(u.input_tokens + u.output_tokens), 0) from token_usage u where u.project_id = b.project_id)::int8 as spent_tokens,
            (select coalesce(sum(u.reserved_tokens) filter (where u.outcome = 'reserved'), 0) from token_usage u where u.project_id = b.project_id)::int8 as reserved_tokens,
            (select coalesce(sum(u.cost_usd), 0) from token_usage u where u.project_id = b.project_id)::float8 as spent_usd,
            (select coalesce(sum(u.reserved_usd) filter (where u.outcome = 'reserved'), 0) from token_usage u where u.project_id = b.project_id)::float8 as reserved_usd
       from project_budgets b where b.project_id = $1 and (b.max_tokens is not null or b.max_usd is not null)`,
    [projectId],
  );
  const row = result.rows[0];
  if (row === undefined) return { ok: true };
  const figures: BudgetFigures = {
    max_tokens: Number(row.max_tokens ?? 0),
    spent_tokens: Number(row.spent_tokens),
    reserved_tokens: Number(row.reserved_tokens),
    requested_tokens: requestedTokens,
    ...moneyFigures(row, requestedTokens, requestedUsd),
  };
  return figures.limit === undefined ? { ok: true } : { ok: false, figures };
}
