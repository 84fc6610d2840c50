import type { Migration } from './migration.ts';

/**
 * A model call made for another agent: the ContextManager summarises an agent's history as the agent
 * `context-manager`, and its `token_usage` row names the agent it summarised for in `on_behalf_of`.
 * `forja_reserve_call` takes it as an eighth argument (null for an agent's own calls).
 */
export const usageOnBehalfOf: Migration = {
  version: 8,
  name: 'usage-on-behalf-of',
  sql: `
    alter table token_usage add column on_behalf_of text;

    drop function forja_reserve_call(uuid, uuid, uuid, text, text, text, bigint);
    create function forja_reserve_call(p_id uuid, p_project_id uuid, p_session_id uuid, p_agent text, p_provider text,
                                       p_model text, p_requested bigint, p_on_behalf_of text)
    returns table (reserved boolean, max_tokens bigint, spent_tokens bigint, reserved_tokens bigint)
    language plpgsql as $$
    declare
      budget bigint;
      spent bigint := 0;
      open_reservations bigint := 0;
    begin
      select b.max_tokens into budget from project_budgets b where b.project_id = p_project_id for update;
      if budget is not null then
        select coalesce(sum(u.input_tokens + u.output_tokens), 0),
               coalesce(sum(u.reserved_tokens) filter (where u.outcome = 'reserved'), 0)
          into spent, open_reservations
          from token_usage u where u.project_id = p_project_id;
        if spent + open_reservations + p_requested > budget then
          insert into token_usage (id, project_id, session_id, agent, on_behalf_of, provider, model, outcome, settled_at)
            values (p_id, p_project_id, p_session_id, p_agent, p_on_behalf_of, p_provider, p_model, 'refused', now());
          return query select false, budget, spent, open_reservations;
          return;
        end if;
      end if;
      insert into token_usage (id, project_id, session_id, agent, on_behalf_of, provider, model, outcome, reserved_tokens)
        values (p_id, p_project_id, p_session_id, p_agent, p_on_behalf_of, p_provider, p_model, 'reserved', p_requested);
      return query select true, budget, spent, open_reservations;
    end $$;
  `,
};
