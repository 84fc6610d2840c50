import type { Queryable } from '../../store/index.ts';
import type { TurnUsage } from '../model-gateway.ts';

export interface Settlement {
  outcome: 'completed' | 'error' | 'cancelled';
  usage: TurnUsage;
  latencyMs: number;
  timeToFirstTokenMs: number | null;
  error?: string;
}

/** Replaces a call's reservation with what it really used. */
export async function settleCall(
  database: Queryable,
  usageId: string,
  settlement: Settlement,
): Promise<void> {
  await database.query(
    `update token_usage set outcome = $2, reserved_tokens = 0, input_tokens = $3, output_tokens = $4, estimated = $5,
       latency_ms = $6, time_to_first_token_ms = $7, error = $8, settled_at = now()
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
    ],
  );
}

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
       error = $2, settled_at = now()
     where outcome = 'reserved' and created_at < now() - make_interval(mins => $1) returning id`,
    [olderThanMinutes, abandonedReservationError],
  );
  return result.rows.length;
}
