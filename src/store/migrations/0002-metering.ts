import type { Migration } from './migration.ts';

/**
 * Metering and budgets of the model gateway. Every model call has a `token_usage` row: it is written as a
 * reservation before the provider is called and settled to the real usage afterwards (or to `refused`,
 * `error`, `cancelled`). A project's spend is the sum of settled tokens plus open reservations.
 */
export const metering: Migration = {
  version: 2,
  name: 'metering',
  sql: `
    create table project_budgets (
      project_id uuid primary key references projects (id),
      max_tokens bigint check (max_tokens is null or max_tokens >= 0),
      updated_at timestamptz not null default now()
    );

    create table token_usage (
      id uuid primary key,
      project_id uuid not null references projects (id),
      session_id uuid references sessions (id),
      agent text not null,
      provider text not null,
      model text not null,
      outcome text not null check (outcome in ('reserved', 'completed', 'error', 'cancelled', 'refused')),
      reserved_tokens bigint not null default 0,
      input_tokens bigint not null default 0,
      output_tokens bigint not null default 0,
      estimated boolean not null default true,
      latency_ms integer,
      time_to_first_token_ms integer,
      error text,
      created_at timestamptz not null default now(),
      settled_at timestamptz
    );
    create index token_usage_by_project on token_usage (project_id);
    create index token_usage_by_session on token_usage (session_id) where session_id is not null;

    -- Reserves a call's maximum before the provider is called, in one round trip: under the budget row's
    -- lock, settled spend + open reservations + this request must fit; otherwise a 'refused' row is written.
    -- Projects without a budget take no lock at all.
    create function forja_reserve_call(p_id uuid, p_project_id uuid, p_session_id uuid, p_agent text, p_provider text,
                                       p_model text, p_requested bigint)
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
          insert into token_usage (id, project_id, session_id, agent, provider, model, outcome, settled_at)
            values (p_id, p_project_id, p_session_id, p_agent, p_provider, p_model, 'refused', now());
          return query select false, budget, spent, open_reservations;
          return;
        end if;
      end if;
      insert into token_usage (id, project_id, session_id, agent, provider, model, outcome, reserved_tokens)
        values (p_id, p_project_id, p_session_id, p_agent, p_provider, p_model, 'reserved', p_requested);
      return query select true, budget, spent, open_reservations;
    end $$;
  `,
};
