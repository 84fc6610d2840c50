import { randomUUID } from 'node:crypto';
import type { Database } from '../../store/index.ts';
import type { BudgetFigures } from '../model-gateway.ts';

export interface CallIdentity {
  projectId: string;
  sessionId: string | null;
  agent: string;
  provider: string;
  model: string;
}

export type Reservation = { ok: true; usageId: string } | { ok: false; usageId: string; figures: BudgetFigures };

/**
 * Reserves a call's maximum cost before the provider is called. Under the project's budget row lock, the
 * settled spend plus open reservations plus this reservation must fit the budget; so however many turns run
 * at once, spend can pass the budget only by what one call uses beyond its own reservation. A refusal is
 * recorded as a `refused` usage row.
 */
export async function reserveCall(database: Database, call: CallIdentity, requestedTokens: number): Promise<Reservation> {
  return database.transaction(async (transaction) => {
    const usageId = randomUUID();
    const budget = await transaction.query<{ max_tokens: number | null }>('select max_tokens from project_budgets where project_id = $1 for update', [call.projectId]);
    const maxTokens = budget.rows[0]?.max_tokens ?? null;
    if (maxTokens !== null) {
      const totals = await transaction.query<{ spent: number; reserved: number }>(
        `select coalesce(sum(input_tokens + output_tokens), 0) as spent,
                coalesce(sum(reserved_tokens) filter (where outcome = 'reserved'), 0) as reserved
         from token_usage where project_id = $1`,
        [call.projectId],
      );
      const { spent, reserved } = totals.rows[0]!;
      if (spent + reserved + requestedTokens > maxTokens) {
        await insertUsage(transaction, usageId, call, 'refused', 0);
        return { ok: false, usageId, figures: { max_tokens: maxTokens, spent_tokens: spent, reserved_tokens: reserved, requested_tokens: requestedTokens } };
      }
    }
    await insertUsage(transaction, usageId, call, 'reserved', requestedTokens);
    return { ok: true, usageId };
  });
}

async function insertUsage(transaction: { query: Database['query'] }, id: string, call: CallIdentity, outcome: string, reservedTokens: number) {
  await transaction.query(
    `insert into token_usage (id, project_id, session_id, agent, provider, model, outcome, reserved_tokens, settled_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, case when $7 = 'refused' then now() end)`,
    [id, call.projectId, call.sessionId, call.agent, call.provider, call.model, outcome, reservedTokens],
  );
}
