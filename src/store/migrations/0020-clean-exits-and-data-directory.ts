import type { Migration } from './migration.ts';

/**
 * Two facts the processes sharing a database agree on. `forja_process_exits`: the processes that stopped
 * cleanly (a row of `forja_processes` moves here on a clean stop), so `forja status` tells a clean stop from a
 * crash; only the newest few are kept. `forja_data_directory`: the one data directory whose repositories
 * belong to this database's projects, by the id written in that directory (ADR 0316).
 */
export const cleanExitsAndDataDirectory: Migration = {
  version: 20,
  name: 'clean-exits-and-data-directory',
  sql: `
    create table forja_process_exits (
      id uuid primary key,
      pid integer not null,
      host text not null,
      started_at timestamptz not null,
      stopped_at timestamptz not null default now()
    );
    create index forja_process_exits_stopped on forja_process_exits (stopped_at desc);

    create table forja_data_directory (
      singleton boolean primary key default true check (singleton),
      directory_id uuid not null,
      path text not null,
      host text not null,
      recorded_at timestamptz not null default now()
    );
  `,
};
