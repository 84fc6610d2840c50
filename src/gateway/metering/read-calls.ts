import type { Queryable } from '../../store/index.ts';

/** One model call as `token_usage` settled it (a turn's trace, ADR 0411). */
export interface RecordedCall {
  usage_id: string;
  agent: string;
  provider: string;
  model: string;
  outcome: string;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  cache_write_input_tokens: number;
  estimated: boolean;
  latency_ms: number | null;
  time_to_first_token_ms: number | null;
  cost_usd: number | null;
  started_at: string;
  settled_at: string | null;
}

/** The calls of one session with these ids, in the order they started. */
export async function readCalls(
  database: Queryable,
  sessionId: string,
  ids: readonly string[],
): Promise<RecordedCall[]> {
  if (ids.length === 0) return [];
  const result = await database.query<RecordedCall>(
    `select id as usage_id, agent, provider, model, outcome,
            input_tokens::float8 as input_tokens, output_tokens::float8 as output_tokens,
            cached_input_tokens::float8 as cached_input_tokens,
            cache_write_input_tokens::float8 as cache_write_input_tokens,
            estimated, latency_ms, time_to_first_token_ms, cost_usd::float8 as cost_usd,
            to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as started_at,
            to_char(settled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as settled_at
       from token_usage where session_id = $1 and id = any($2::uuid[])
      order by created_at`,
    [sessionId, ids],
  );
  return result.rows;
}
