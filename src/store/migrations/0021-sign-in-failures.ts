import type { Migration } from './migration.ts';

/**
 * Failed sign-ins, counted in the database so every process sharing it slows the same attacker (ADR 0317):
 * one row per key (`pair:<address> <username>` or `address:<address>`), its failures in the current run and
 * the moment the next attempt may be checked.
 */
export const signInFailures: Migration = {
  version: 21,
  name: 'sign-in-failures',
  sql: `
    create table sign_in_failures (
      key text primary key,
      failures integer not null,
      last_failed_at timestamptz not null default now(),
      blocked_until timestamptz not null
    );
    create index sign_in_failures_last_failed on sign_in_failures (last_failed_at);
  `,
};
