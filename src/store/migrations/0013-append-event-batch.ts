import type { Migration } from './migration.ts';

/**
 * Group commit of one session's queued appends (ADR 0248). `forja_append_event_batch` takes several
 * appends to one session — `p_appends` is a JSON array of `{events, outbox, expected_seq?, fence?}` — and runs
 * them in order in one statement, so one round trip and one commit carry them all. Each append keeps its own
 * outcome: a fence that no longer holds (`forja_lane_fence`, the lease row locked `for share` until the commit)
 * or an expected seq that is not the session's head at its turn refuses that append alone — nothing of it,
 * outbox included, is written — and the next ones go on from the same head. It returns, for each append
 * (`append_index`, 1-based), its inserted events with `last_seq`, the head after it; or one row with `refusal`
 * ('fenced' or 'conflict') and `last_seq`, the head it met; or, for an append of no event, one row with no
 * event. No row at all: there is no such session. With `p_notify` it sends one NOTIFY, at the last head, when anything was written.
 */
export const appendEventBatch: Migration = {
  version: 13,
  name: 'append-event-batch',
  sql: `
    create function forja_append_event_batch(p_session_id uuid, p_appends jsonb, p_notify boolean)
    returns table (append_index integer, refusal text, last_seq integer, id uuid, session_id uuid, seq integer,
                   type text, actor text, payload jsonb, created_at timestamptz)
    language plpgsql as $$
    #variable_conflict use_column
    declare
      head integer;
      item record;
      written boolean := false;
      appended integer;
    begin
      select coalesce(max(e.seq), 0) into head from session_events e where e.session_id = p_session_id;
      -- No row at all: the session does not exist (its first append, session.created, finds it).
      if head = 0 and not exists (select 1 from sessions s where s.id = p_session_id) then
        return;
      end if;
      for item in
        select a.value as append, a.ordinal::integer as position
        from jsonb_array_elements(p_appends) with ordinality as a (value, ordinal)
        order by a.ordinal
      loop
        if item.append ? 'fence' and not forja_lane_fence(p_session_id, item.append->'fence'->>'lane',
                                                           (item.append->'fence'->>'owner')::uuid,
                                                           (item.append->'fence'->>'epoch')::bigint) then
          return query select item.position, 'fenced'::text, head, null::uuid, null::uuid, null::integer,
                              null::text, null::text, null::jsonb, null::timestamptz;
          continue;
        end if;
        if item.append ? 'expected_seq' and (item.append->>'expected_seq')::integer <> head then
          return query select item.position, 'conflict'::text, head, null::uuid, null::uuid, null::integer,
                              null::text, null::text, null::jsonb, null::timestamptz;
          continue;
        end if;
        appended := jsonb_array_length(item.append->'events');
        if appended = 0 then
          return query select item.position, null::text, head, null::uuid, null::uuid, null::integer,
                              null::text, null::text, null::jsonb, null::timestamptz;
          continue;
        end if;
        return query
          insert into session_events as e (id, session_id, seq, type, actor, payload)
          select (element.event->>'id')::uuid, p_session_id, head + element.ordinal::integer,
                 element.event->>'type', element.event->>'actor', element.event->'payload'
          from jsonb_array_elements(item.append->'events') with ordinality as element (event, ordinal)
          returning item.position, null::text, head + appended, e.id, e.session_id, e.seq, e.type, e.actor,
                    e.payload, e.created_at;
        if jsonb_array_length(item.append->'outbox') > 0 then
          insert into outbox (aggregate_type, aggregate_id, event_id, payload)
          select message.value->>'aggregate_type', message.value->>'aggregate_id',
                 (message.value->>'event_id')::uuid, coalesce(message.value->'payload', '{}'::jsonb)
          from jsonb_array_elements(item.append->'outbox') as message;
        end if;
        head := head + appended;
        written := true;
      end loop;
      if p_notify and written then
        perform pg_notify('forja_session_events', p_session_id::text || ':' || head);
      end if;
    end $$;
  `,
};
