import { randomUUID } from 'node:crypto';
import type { Database } from '../../store/index.ts';
import type { BudgetFigures } from '../model-gateway.ts';

export interface CallIdentity {
  projectId: string;
  sessionId: string | null;
  agent: string;
  provider: string;
  model: string;
  /** The agent a call is made for, when another agent makes it (the ContextManager's summaries). */
  onBehalfOf?: string | null;
  /** The process making the call (`forja_processes`): its reservations are settled as interrupted when it dies. */
  processId?: string | null;
}

export type Reservation =
  | { ok: true; usageId: string }
  | { ok: false; usageId: string; figures: BudgetFigures };

/**
 * Reserves a call's maximum cost before the provider is called. Under the project's budget row lock, the
 * settled spend plus open reservations plus this reservation must fit the budget; so however many turns run
 * at once, spend can pass the budget only by what one call uses beyond its own reservation. A refusal is
 * recorded as a `refused` usage row. One call of `forja_reserve_call` (migrations 0002, 0008, 0009): one round trip.
 */
export async function reserveCall(
  database: Database,
  call: CallIdentity,
  requestedTokens: number,
  inputEstimate: number | null = null,
): Promise<Reservation> {
  const usageId = randomUUID();
  const result = await database.query<{
    reserved: boolean;
    max_tokens: number | null;
    spent_tokens: number;
    reserved_tokens: number;
  }>('select * from forja_reserve_call($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)', [
    usageId,
    call.projectId,
    call.sessionId,
    call.agent,
    call.provider,
    call.model,
    requestedTokens,
    call.onBehalfOf ?? null,
    call.processId ?? null,
    inputEstimate,
  ]);
  const row = result.rows[0]!;
  if (row.reserved) return { ok: true, usageId };
  return {
    ok: false,
    usageId,
    figures: {
      max_tokens: row.max_tokens ?? 0,
      spent_tokens: row.spent_tokens,
      reserved_tokens: row.reserved_tokens,
      requested_tokens: requestedTokens,
    },
  };
}
