import type { Migration } from './migration.ts';

/**
 * Which model each agent kind of a running process uses (ADR 0285): `forja status` reads it from
 * the database the processes share, so it tells what each process was started with, not what the shell that
 * asks happens to have set. A JSON list of `{agent, variable, provider, model}`; empty for rows written before.
 */
export const processModels: Migration = {
  version: 18,
  name: 'process-models',
  sql: `
    alter table forja_processes add column models jsonb not null default '[]'::jsonb;
  `,
};
