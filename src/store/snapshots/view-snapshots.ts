import type { Queryable } from '../database.ts';

/** A session's stored snapshot: the fold's view as of `lastSeq`, as text only its writer's version reads. */
export interface ViewSnapshotRow {
  lastSeq: number;
  body: string;
}

/**
 * The session's snapshot written by `foldVersion`, or null: a snapshot of another version of the fold is not
 * read (ADR 0426). Snapshots are a cache of the log, never a source of truth.
 */
export async function readViewSnapshot(
  database: Queryable,
  sessionId: string,
  foldVersion: string,
): Promise<ViewSnapshotRow | null> {
  const result = await database.query<{ last_seq: number; body: string }>(
    `select last_seq, body from session_view_snapshots where session_id = $1 and fold_version = $2`,
    [sessionId, foldVersion],
  );
  const row = result.rows[0];
  return row === undefined ? null : { lastSeq: Number(row.last_seq), body: row.body };
}

/**
 * Keeps this snapshot as the session's, unless the one stored is of the same version and as new or newer
 * (two processes may write one each). A snapshot of another version is replaced whatever its seq.
 */
export async function writeViewSnapshot(
  database: Queryable,
  snapshot: { sessionId: string; foldVersion: string; lastSeq: number; body: string },
): Promise<void> {
  await database.query(
    `insert into session_view_snapshots (session_id, fold_version, last_seq, body) values ($1, $2, $3, $4)
     on conflict (session_id) do update
       set fold_version = excluded.fold_version, last_seq = excluded.last_seq, body = excluded.body,
           written_at = now()
       where session_view_snapshots.fold_version <> excluded.fold_version
          or session_view_snapshots.last_seq < excluded.last_seq`,
    [snapshot.sessionId, snapshot.foldVersion, snapshot.lastSeq, snapshot.body],
  );
}

/** Removes the session's snapshot as read (version and seq): one that did not parse is not read again. */
export async function dropViewSnapshot(
  database: Queryable,
  snapshot: { sessionId: string; foldVersion: string; lastSeq: number },
): Promise<void> {
  await database.query(
    `delete from session_view_snapshots where session_id = $1 and fold_version = $2 and last_seq = $3`,
    [snapshot.sessionId, snapshot.foldVersion, snapshot.lastSeq],
  );
}
