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
 * recorded as a `refused` usage row. With a budget in money the same holds in US dollars: `requestedUsd` is the
 * call's cost at full price (null: no price known, refused under a money budget). One call of
 * `forja_reserve_call` (migrations 0002, 0008, 0009, 0023): one round trip.
 */
export async function reserveCall(
  database: Database,
  call: CallIdentity,
  requestedTokens: number,
  inputEstimate: number | null = null,
  requestedUsd: number | null = null,
): Promise<Reservation> {
  const usageId = randomUUID();
  const result = await database.query<{
    reserved: boolean;
    max_tokens: number | null;
    spent_tokens: number;
    reserved_tokens: number;
    max_usd: number | null;
    spent_usd: number;
    reserved_usd: number;
  }>(
    `select reserved, max_tokens, spent_tokens, reserved_tokens, max_usd::float8 as max_usd,
            spent_usd::float8 as spent_usd, reserved_usd::float8 as reserved_usd
       from forja_reserve_call($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
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
      requestedUsd,
    ],
  );
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
      ...moneyFigures(row, requestedTokens, requestedUsd),
    },
  };
}

/** The money side of a refusal's figures, when the project has a budget in money, and which budget refused. */
export function moneyFigures(
  row: {
    max_tokens: number | string | null;
    spent_tokens: number | string;
    reserved_tokens: number | string;
    max_usd: number | null;
    spent_usd: number | string;
    reserved_usd: number | string;
  },
  requestedTokens: number,
  requestedUsd: number | null,
): Partial<BudgetFigures> {
  const tokensOver =
    row.max_tokens !== null &&
    Number(row.spent_tokens) + Number(row.reserved_tokens) + requestedTokens >
      Number(row.max_tokens);
  if (row.max_usd === null) return tokensOver ? { limit: 'tokens' } : {};
  const figures = {
    max_usd: Number(row.max_usd),
    spent_usd: Number(row.spent_usd),
    reserved_usd: Number(row.reserved_usd),
    requested_usd: requestedUsd,
  };
  if (tokensOver) return { ...figures, limit: 'tokens' };
  if (requestedUsd === null) return { ...figures, limit: 'price_unknown' };
  return figures.spent_usd + figures.reserved_usd + requestedUsd > figures.max_usd
    ? { ...figures, limit: 'usd' }
    : figures;
}
