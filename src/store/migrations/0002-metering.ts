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
  `,
};
