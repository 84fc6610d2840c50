import type { Migration } from './migration.ts';

/**
 * Snapshots of a session's folded view (ADR 0426): a cache of the fold as of `last_seq`, written by the fold's
 * version (`fold_version`, a fingerprint of its code). One row per session, the newest. Not part of the log:
 * deleting any row loses nothing but the time to fold the log again, so no append-only rule applies to it.
 */
export const sessionViewSnapshots: Migration = {
  version: 28,
  name: 'session-view-snapshots',
  sql: `
    create table session_view_snapshots (
      session_id uuid primary key references sessions (id) on delete cascade,
      fold_version text not null,
      last_seq integer not null check (last_seq >= 1),
      body text not null,
      written_at timestamptz not null default now()
    );
  `,
};
