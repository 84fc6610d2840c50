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

    -- Appends one batch of events with consecutive seqs after the session's last one, and their outbox rows,
    -- atomically; NOTIFY tells listeners the new last seq when the transaction commits. Returns no row when
    -- p_expected_seq is given and stale. Two racing appends compute the same seq: the unique (session_id, seq)
    -- index lets one commit and fails the other with unique_violation, so seqs never repeat and never skip.
    -- A function, because its statements' plans are cached per connection (cheap on PGlite, which does not
    -- cache plans of ad-hoc statements).
    create function forja_append_events(p_session_id uuid, p_expected_seq integer, p_events jsonb, p_outbox jsonb)
    returns setof session_events language plpgsql as $$
    declare
      head integer;
    begin
      select coalesce(max(seq), 0) into head from session_events where session_id = p_session_id;
      if p_expected_seq is not null and head <> p_expected_seq then
        return;
      end if;
      return query
        insert into session_events (id, session_id, seq, type, actor, payload)
        select (element.event->>'id')::uuid, p_session_id, head + element.ordinal::integer,
               element.event->>'type', element.event->>'actor', element.event->'payload'
        from jsonb_array_elements(p_events) with ordinality as element (event, ordinal)
        returning *;
      if jsonb_array_length(p_outbox) > 0 then
        insert into outbox (aggregate_type, aggregate_id, event_id, payload)
        select message.value->>'aggregate_type', message.value->>'aggregate_id', (message.value->>'event_id')::uuid,
               coalesce(message.value->'payload', '{}'::jsonb)
        from jsonb_array_elements(p_outbox) as message;
      end if;
      perform pg_notify('forja_session_events', p_session_id::text || ':' || (head + jsonb_array_length(p_events)));
    end $$;

    create table agent_instructions (
      project_id uuid not null references projects (id),
      agent text not null,
      content text not null,
      updated_at timestamptz not null default now(),
      primary key (project_id, agent)
    );
  `,
};
