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
}

export interface UsageSummary {
  total_tokens: number;
  reserved_tokens: number;
  by_agent_and_model: UsageLine[];
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
            coalesce(sum(input_tokens + output_tokens) filter (where outcome = 'interrupted'), 0) as interrupted_tokens
     from token_usage where ${column} = $1 group by agent, provider, model order by agent, provider, model`,
    [id],
  );
  const reserved = await database.query<{ reserved: number }>(
    `select coalesce(sum(reserved_tokens), 0) as reserved from token_usage where ${column} = $1 and outcome = 'reserved'`,
    [id],
  );
  return {
    total_tokens: lines.rows.reduce((sum, line) => sum + line.total_tokens, 0),
    reserved_tokens: reserved.rows[0]!.reserved,
    by_agent_and_model: lines.rows,
  };
}
