import type { Queryable } from '../../store/index.ts';
import { abandonedReservationError } from './settle-call.ts';

/** Ended calls per model, then per agent: `{ 'examples/criativo-demo.json': { criativo: 3 } }`. */
export type EndedCalls = Record<string, Record<string, number>>;

/**
 * How many calls to `provider` ended — completed, failed or cancelled — per model and agent, from
 * `token_usage`. A call still reserved, or abandoned by a process that stopped during it, never ended:
 * the turn it served is resumed after a restart and calls again. A refused call never reached the provider.
 */
export async function countEndedCalls(database: Queryable, provider: string): Promise<EndedCalls> {
  const result = await database.query<{ model: string; agent: string; calls: number }>(
    `select model, agent, count(*)::int as calls from token_usage
     where provider = $1 and outcome in ('completed', 'error', 'cancelled') and error is distinct from $2
     group by model, agent order by model, agent`,
    [provider, abandonedReservationError],
  );
  const ended: EndedCalls = {};
  // biome-ignore lint/suspicious/noAssignInExpressions: `??=` creates the model's entry where it is first needed
  for (const row of result.rows) (ended[row.model] ??= {})[row.agent] = Number(row.calls);
  return ended;
}
