import type { Queryable } from '../../store/index.ts';
import type { TurnUsage } from '../model-gateway.ts';

export interface Settlement {
  outcome: 'completed' | 'error' | 'cancelled';
  usage: TurnUsage;
  latencyMs: number;
  timeToFirstTokenMs: number | null;
  error?: string;
  /** What the call cost in US dollars at its model's price; null when no price is known. */
  costUsd?: number | null;
}

/** Replaces a call's reservation with what it really used. */
export async function settleCall(
  database: Queryable,
  usageId: string,
  settlement: Settlement,
): Promise<void> {
  await database.query(
    `update token_usage set outcome = $2, reserved_tokens = 0, input_tokens = $3, output_tokens = $4, estimated = $5,
       latency_ms = $6, time_to_first_token_ms = $7, error = $8, settled_at = now(),
       cached_input_tokens = $9, cache_write_input_tokens = $10, cost_usd = $11,
       reserved_usd = case when reserved_usd is null then null else 0 end
     where id = $1 and outcome = 'reserved'`,
    [
      usageId,
      settlement.outcome,
      settlement.usage.inputTokens,
      settlement.usage.outputTokens,
      settlement.usage.estimated,
      Math.round(settlement.latencyMs),
      settlement.timeToFirstTokenMs === null ? null : Math.round(settlement.timeToFirstTokenMs),
      settlement.error ?? null,
      settlement.usage.cachedInputTokens ?? 0,
      settlement.usage.cacheWriteInputTokens ?? 0,
      settlement.costUsd ?? null,
    ],
  );
}

/**
 * A reservation settled without the call's own figures (its process stopped) counts the money it held as spent:
 * the provider may have billed up to it, and its input and output rates are not kept to price an estimate.
 */
export const MONEY_RESERVATION_AS_SPENT =
  'cost_usd = reserved_usd, reserved_usd = case when reserved_usd is null then null else 0 end';

/** The error an abandoned reservation is settled with: the call never ended, its process did. */
export const abandonedReservationError =
  'reservation abandoned (the process stopped during the call)';

/**
 * Reservations left open by a process that died mid-call would hold budget forever; after this age they are
 * settled as errors with their reservation counted as estimated usage (the provider may have been billed).
 */
export async function expireStaleReservations(
  database: Queryable,
  olderThanMinutes = 30,
): Promise<number> {
  const result = await database.query<{ id: string }>(
    `update token_usage set outcome = 'error', input_tokens = reserved_tokens, reserved_tokens = 0, estimated = true,
       error = $2, settled_at = now(), ${MONEY_RESERVATION_AS_SPENT}
     where outcome = 'reserved' and created_at < now() - make_interval(mins => $1) returning id`,
    [olderThanMinutes, abandonedReservationError],
  );
  return result.rows.length;
}
