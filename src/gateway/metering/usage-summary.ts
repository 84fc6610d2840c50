import type { Queryable } from '../../store/index.ts';

export interface UsageLine {
  agent: string;
  provider: string;
  model: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  /** Calls whose counts are estimates (the provider reported no usage). */
  estimated_calls: number;
  failed_calls: number;
  refused_calls: number;
  /** Calls whose process stopped during them, settled at the estimate and counted as spent. */
  interrupted_calls: number;
  /** The tokens of those interrupted calls (estimated input and output streamed so far), part of `total_tokens`. */
  interrupted_tokens: number;
  /** Of `input_tokens`, those read from the provider's prompt cache and those written to it. */
  cached_input_tokens: number;
  cache_write_input_tokens: number;
  /** What the calls cost in US dollars at their model's price (those with a known price). */
  cost_usd: number;
  /** Calls that used tokens with no price known for their model: their cost is not in `cost_usd`. */
  unpriced_calls: number;
}

/** One lane's burn: an agent's calls and those made for it (the ContextManager's summaries). */
export interface LaneUsage {
  lane: string;
  calls: number;
  total_tokens: number;
  cached_input_tokens: number;
  cache_write_input_tokens: number;
  cost_usd: number;
}

export interface UsageSummary {
  total_tokens: number;
  reserved_tokens: number;
  input_tokens: number;
  cached_input_tokens: number;
  /** The share of input tokens read from a prompt cache, 0 to 1 (0 with no input). */
  cached_share: number;
  total_cost_usd: number;
  /** Money held by open reservations (at full price). */
  reserved_usd: number;
  unpriced_calls: number;
  by_agent_and_model: UsageLine[];
  by_lane: LaneUsage[];
}

/** Sums metered usage by agent and model, for a project or for one session. */
export async function summariseUsage(
  database: Queryable,
  scope: { projectId: string } | { sessionId: string },
): Promise<UsageSummary> {
  const [column, id] =
    'projectId' in scope ? ['project_id', scope.projectId] : ['session_id', scope.sessionId];
  const lines = await database.query<UsageLine>(
    `select agent, provider, model, count(*) as calls,
            coalesce(sum(input_tokens), 0) as input_tokens, coalesce(sum(output_tokens), 0) as output_tokens,
            coalesce(sum(input_tokens + output_tokens), 0) as total_tokens,
            count(*) filter (where estimated and outcome <> 'refused') as estimated_calls,
            count(*) filter (where outcome in ('error', 'cancelled')) as failed_calls,
            count(*) filter (where outcome = 'refused') as refused_calls,
            count(*) filter (where outcome = 'interrupted') as interrupted_calls,
            coalesce(sum(input_tokens + output_tokens) filter (where outcome = 'interrupted'), 0) as interrupted_tokens,
            ${CACHE_AND_COST},
            count(*) filter (where cost_usd is null and input_tokens + output_tokens > 0) as unpriced_calls
     from token_usage where ${column} = $1 group by agent, provider, model order by agent, provider, model`,
    [id],
  );
  const lanes = await database.query<LaneUsage>(
    `select coalesce(on_behalf_of, agent) as lane, count(*) as calls,
            coalesce(sum(input_tokens + output_tokens), 0) as total_tokens, ${CACHE_AND_COST}
     from token_usage where ${column} = $1 and outcome <> 'refused' group by lane order by cost_usd desc, lane`,
    [id],
  );
  const reserved = await database.query<{ reserved: number; reserved_usd: number }>(
    `select coalesce(sum(reserved_tokens), 0) as reserved, coalesce(sum(reserved_usd), 0)::float8 as reserved_usd
     from token_usage where ${column} = $1 and outcome = 'reserved'`,
    [id],
  );
  const sum = (pick: (line: UsageLine) => number) =>
    lines.rows.reduce((total, line) => total + pick(line), 0);
  const input = sum((line) => line.input_tokens);
  const cached = sum((line) => line.cached_input_tokens);
  return {
    total_tokens: sum((line) => line.total_tokens),
    reserved_tokens: reserved.rows[0]!.reserved,
    input_tokens: input,
    cached_input_tokens: cached,
    cached_share: input === 0 ? 0 : cached / input,
    total_cost_usd: Math.round(sum((line) => line.cost_usd) * 1e9) / 1e9,
    reserved_usd: reserved.rows[0]!.reserved_usd,
    unpriced_calls: sum((line) => line.unpriced_calls),
    by_agent_and_model: lines.rows,
    by_lane: lanes.rows,
  };
}

const CACHE_AND_COST = `coalesce(sum(cached_input_tokens), 0) as cached_input_tokens,
            coalesce(sum(cache_write_input_tokens), 0) as cache_write_input_tokens,
            coalesce(sum(cost_usd), 0)::float8 as cost_usd`;
