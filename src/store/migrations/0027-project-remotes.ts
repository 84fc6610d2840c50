import type { Migration } from './migration.ts';

/**
 * The remotes a project declares to push its `main` to (ADR 0415): a name and a URL, nothing else. The URL
 * never carries credentials (the API refuses one that does); they come from the environment at push time.
 */
export const projectRemotes: Migration = {
  version: 27,
  name: 'project-remotes',
  sql: `
    create table project_remotes (
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      url text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (project_id, name)
    );
  `,
};
