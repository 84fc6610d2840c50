import type { Migration } from './migration.ts';

/**
 * Budgets that stay true through crashes (ADR 0130). A reservation belongs to the process that made
 * it (`token_usage.process_id`, a row of `forja_processes` kept alive by a heartbeat); when that process is
 * gone, its open reservations are settled at once as `interrupted`: the input tokens as estimated at the
 * reservation, the output tokens as streamed so far, counted as spent (the provider may have billed them).
 * `forja_reserve_call` takes the process and the input estimate as ninth and tenth arguments.
 */
export const interruptedCalls: Migration = {
  version: 9,
  name: 'interrupted-calls',
  sql: `
    create table forja_processes (
      id uuid primary key,
      pid integer not null,
      host text not null,
      started_at timestamptz not null default now(),
      last_seen timestamptz not null default now()
    );

    alter table token_usage drop constraint token_usage_outcome_check;
    alter table token_usage add constraint token_usage_outcome_check
      check (outcome in ('reserved', 'completed', 'error', 'cancelled', 'refused', 'interrupted'));
    alter table token_usage add column process_id uuid;
    alter table token_usage add column input_estimate bigint;
    alter table token_usage add column streamed_output_tokens bigint not null default 0;
    create index token_usage_open_by_process on token_usage (process_id) where outcome = 'reserved';

    drop function forja_reserve_call(uuid, uuid, uuid, text, text, text, bigint, text);
    create function forja_reserve_call(p_id uuid, p_project_id uuid, p_session_id uuid, p_agent text, p_provider text,
                                       p_model text, p_requested bigint, p_on_behalf_of text, p_process_id uuid,
                                       p_input_estimate bigint)
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
          insert into token_usage (id, project_id, session_id, agent, on_behalf_of, provider, model, outcome, settled_at, process_id)
            values (p_id, p_project_id, p_session_id, p_agent, p_on_behalf_of, p_provider, p_model, 'refused', now(), p_process_id);
          return query select false, budget, spent, open_reservations;
          return;
        end if;
      end if;
      insert into token_usage (id, project_id, session_id, agent, on_behalf_of, provider, model, outcome, reserved_tokens,
                               process_id, input_estimate)
        values (p_id, p_project_id, p_session_id, p_agent, p_on_behalf_of, p_provider, p_model, 'reserved', p_requested,
                p_process_id, p_input_estimate);
      return query select true, budget, spent, open_reservations;
    end $$;
  `,
};
