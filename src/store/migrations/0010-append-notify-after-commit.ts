import type { Migration } from './migration.ts';

/**
 * Appends that do not hold the notification lock through their commit (ADR 0180). PostgreSQL takes
 * one database-wide lock for a transaction that has sent NOTIFY, from just before its commit until it ends —
 * through the commit's WAL flush — so appends that notify commit one at a time, each with a flush of its own,
 * where plain INSERTs share flushes (group commit). `forja_append_events` takes a fifth argument, `p_notify`:
 * false leaves the notification to the caller, who sends it after the commit in a statement of its own (no
 * WAL to flush, so the lock is held for microseconds) and for several appends at once. The four-argument
 * form stays, notifying as before, for any caller that still uses it.
 */
export const appendNotifyAfterCommit: Migration = {
  version: 10,
  name: 'append-notify-after-commit',
  sql: `
    create function forja_append_events(p_session_id uuid, p_expected_seq integer, p_events jsonb, p_outbox jsonb,
                                        p_notify boolean)
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
      if p_notify then
        perform pg_notify('forja_session_events', p_session_id::text || ':' || (head + jsonb_array_length(p_events)));
      end if;
    end $$;

    create or replace function forja_append_events(p_session_id uuid, p_expected_seq integer, p_events jsonb,
                                                   p_outbox jsonb)
    returns setof session_events language sql as $$
      select * from forja_append_events(p_session_id, p_expected_seq, p_events, p_outbox, true)
    $$;
  `,
};
