import type { Migration } from './migration.ts';

/**
 * Handoffs between agents (record ADR 0008). The table is current state only; every transition is also an
 * immutable `handoff.<status>` event appended in the same transaction, from which the table can be rebuilt.
 */
export const handoffs: Migration = {
  version: 3,
  name: 'handoffs',
  sql: `
    create table handoffs (
      id uuid primary key,
      session_id uuid not null references sessions (id),
      from_agent text not null,
      to_agent text not null,
      artifact_id uuid,
      status text not null check (status in ('offered', 'accepted', 'completed', 'rejected')),
      -- The order handoffs were offered in, also among those offered in one transaction (same created_at).
      offered_order bigint generated always as identity,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index handoffs_by_session on handoffs (session_id, offered_order);
  `,
};
