import type { Migration } from './migration.ts';

/**
 * What each call cost (ADR 0331). `token_usage` keeps the input read from and written to the provider's
 * prompt cache (part of `input_tokens`), the call's cost in US dollars at settlement (null: no price known)
 * and the money its open reservation holds (null: no price known); `project_budgets.max_usd` is a budget in
 * money beside the one in tokens, and `max_tokens` may now be unset while `max_usd` is set.
 * `forja_reserve_call` takes the reservation's cost as an eleventh argument (null by default: no price known) and refuses a call either budget
 * does not cover, or one with no known price under a money budget, under the same row lock as before.
 */
export const callCost: Migration = {
  version: 23,
  name: 'call-cost',
  sql: `
    alter table token_usage add column cached_input_tokens bigint not null default 0;
    alter table token_usage add column cache_write_input_tokens bigint not null default 0;
    alter table token_usage add column cost_usd numeric;
    alter table token_usage add column reserved_usd numeric;
    alter table project_budgets add column max_usd numeric check (max_usd is null or max_usd >= 0);

    drop function forja_reserve_call(uuid, uuid, uuid, text, text, text, bigint, text, uuid, bigint);
    create function forja_reserve_call(p_id uuid, p_project_id uuid, p_session_id uuid, p_agent text, p_provider text,
                                       p_model text, p_requested bigint, p_on_behalf_of text, p_process_id uuid,
                                       p_input_estimate bigint, p_requested_usd numeric default null)
    returns table (reserved boolean, max_tokens bigint, spent_tokens bigint, reserved_tokens bigint,
                   max_usd numeric, spent_usd numeric, reserved_usd numeric)
    language plpgsql as $$
    declare
      budget bigint;
      budget_usd numeric;
      spent bigint := 0;
      open_reservations bigint := 0;
      spent_money numeric := 0;
      open_money numeric := 0;
    begin
      select b.max_tokens, b.max_usd into budget, budget_usd
        from project_budgets b where b.project_id = p_project_id for update;
      if budget is not null or budget_usd is not null then
        select coalesce(sum(u.input_tokens + u.output_tokens), 0),
               coalesce(sum(u.reserved_tokens) filter (where u.outcome = 'reserved'), 0),
               coalesce(sum(u.cost_usd), 0),
               coalesce(sum(u.reserved_usd) filter (where u.outcome = 'reserved'), 0)
          into spent, open_reservations, spent_money, open_money
          from token_usage u where u.project_id = p_project_id;
        if (budget is not null and spent + open_reservations + p_requested > budget)
           or (budget_usd is not null
               and (p_requested_usd is null or spent_money + open_money + p_requested_usd > budget_usd)) then
          insert into token_usage (id, project_id, session_id, agent, on_behalf_of, provider, model, outcome, settled_at, process_id)
            values (p_id, p_project_id, p_session_id, p_agent, p_on_behalf_of, p_provider, p_model, 'refused', now(), p_process_id);
          return query select false, budget, spent, open_reservations, budget_usd, spent_money, open_money;
          return;
        end if;
      end if;
      insert into token_usage (id, project_id, session_id, agent, on_behalf_of, provider, model, outcome, reserved_tokens,
                               process_id, input_estimate, reserved_usd)
        values (p_id, p_project_id, p_session_id, p_agent, p_on_behalf_of, p_provider, p_model, 'reserved', p_requested,
                p_process_id, p_input_estimate, p_requested_usd);
      return query select true, budget, spent, open_reservations, budget_usd, spent_money, open_money;
    end $$;
  `,
};
