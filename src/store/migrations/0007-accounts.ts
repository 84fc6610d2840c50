import type { Migration } from './migration.ts';

/**
 * Accounts (ADR 0100): people who sign in, their browser sessions and API tokens (both stored as
 * SHA-256 of a random secret, never the secret), and who belongs to which project.
 */
export const accounts: Migration = {
  version: 7,
  name: 'accounts',
  sql: `
    create table people (
      id uuid primary key,
      username text not null unique check (username ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
      password_hash text not null,
      created_at timestamptz not null default now()
    );

    create table auth_sessions (
      secret_hash text primary key,
      person_id uuid not null references people (id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index auth_sessions_by_person on auth_sessions (person_id);

    create table api_tokens (
      id uuid primary key,
      person_id uuid not null references people (id) on delete cascade,
      name text not null,
      secret_hash text not null unique,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    );
    create index api_tokens_by_person on api_tokens (person_id);

    create table project_members (
      project_id uuid not null references projects (id),
      person_id uuid not null references people (id) on delete cascade,
      role text not null check (role in ('owner', 'member')),
      created_at timestamptz not null default now(),
      primary key (project_id, person_id)
    );
    create index project_members_by_person on project_members (person_id);
  `,
};
