import type { Migration } from './migration.ts';

/** Projects, sessions, the append-only session event log, the transactional outbox, agent instruction patches. */
export const foundation: Migration = {
  version: 1,
  name: 'foundation',
  sql: `
    create table projects (
      id uuid primary key,
      name text not null,
      created_at timestamptz not null default now()
    );

    create table sessions (
      id uuid primary key,
      project_id uuid not null references projects (id),
      title text,
      -- The stream version: the seq of the last event. Appends lock this row, which serialises them per session.
      last_seq integer not null default 0,
      created_at timestamptz not null default now()
    );
    create index sessions_by_project on sessions (project_id, created_at);

    create table session_events (
      id uuid primary key,
      session_id uuid not null references sessions (id),
      seq integer not null check (seq >= 1),
      type text not null,
      actor text not null,
      payload jsonb not null,
      created_at timestamptz not null default now(),
      unique (session_id, seq)
    );

    -- The log is append-only: the database itself refuses to change or remove an event.
    create function session_events_are_immutable() returns trigger language plpgsql as $$
    begin
      raise exception 'session_events is append-only (% refused)', tg_op;
    end $$;
    create trigger session_events_append_only
      before update or delete on session_events
      for each row execute function session_events_are_immutable();

    create table outbox (
      id bigint generated always as identity primary key,
      aggregate_type text not null,
      aggregate_id text not null,
      event_id uuid,
      payload jsonb not null default '{}'::jsonb,
      created_at timestamptz not null default now(),
      available_at timestamptz not null default now(),
      processed_at timestamptz,
      attempts integer not null default 0,
      last_error text
    );
    create index outbox_pending on outbox (aggregate_type, id) where processed_at is null;

    create table agent_instructions (
      project_id uuid not null references projects (id),
      agent text not null,
      content text not null,
      updated_at timestamptz not null default now(),
      primary key (project_id, agent)
    );
  `,
};
