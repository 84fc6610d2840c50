import {
  dropViewSnapshot,
  readViewSnapshot,
  writeViewSnapshot,
  type Queryable,
} from '../../store/index.ts';
import type { SessionView } from './session-view.ts';
import { MAX_SNAPSHOT_CHARS, snapshotText, viewFromSnapshot } from './session-view-snapshot.ts';

/**
 * The session's view from its snapshot by this version of the fold, or null when it has none that reads; one
 * that does not read is removed, so it is not read again.
 */
export async function loadViewSnapshot(
  database: Queryable,
  sessionId: string,
  foldVersion: string,
): Promise<SessionView | null> {
  const row = await readViewSnapshot(database, sessionId, foldVersion);
  if (row === null) return null;
  const view = viewFromSnapshot(row.body, sessionId, row.lastSeq);
  if (view === null)
    await dropViewSnapshot(database, { sessionId, foldVersion, lastSeq: row.lastSeq });
  return view;
}

/** Writes the view as its session's snapshot and answers the seq it holds; null when it is too large to keep. */
export async function saveViewSnapshot(
  database: Queryable,
  view: SessionView,
  foldVersion: string,
  maxChars = MAX_SNAPSHOT_CHARS,
): Promise<number | null> {
  const { session_id: sessionId, last_seq: lastSeq } = view.state;
  const body = sessionId === null || lastSeq === 0 ? null : snapshotText(view, maxChars);
  if (sessionId === null || body === null) return null;
  await writeViewSnapshot(database, { sessionId, foldVersion, lastSeq, body });
  return lastSeq;
}
