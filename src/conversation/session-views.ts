import { refreshSessionView, viewAfterAppend, type SessionView } from '../agents/index.ts';
import type { EventLog, HeadsHeard } from '../store/index.ts';
import type { SessionViews } from './conversation-dependencies.ts';
import { createViewSnapshotKeeper, type ViewSnapshots } from './view-snapshot-keeper.ts';

export const DEFAULT_IDLE_RELEASE_MS = 10 * 60_000;

interface Entry {
  view: SessionView;
  usedAt: number;
  /**
   * The highest seq this process heard for the session since the view was read (Infinity after the listening
   * connection was lost): while the view's last seq is at least this, it holds everything heard.
   */
  heard: number;
}

/**
 * One rehydrated view per session, brought up to date from the log on every `load`. Views unused for `idleMs`
 * are released. A restart starts with none: with `snapshots`, the first use reads the session's snapshot and
 * folds only the events after it (ADR 0426); without, it folds the whole log. Snapshots are written off the
 * message's path: when `releaseIdle` finds a view unused for a while (or releases it), and on
 * `saveSnapshots`, if the view has gone far enough beyond its last snapshot.
 *
 * With `heads` (the process's notifications), `peek` gives a view with no read while this process has heard of
 * no append it lacks and has been listening all along (ADR 0262). Such a view is very likely current, never
 * certainly: a notification can still be on its way, or lost with the process that committed. A caller decides
 * on it only with an append that expects its seq, and decides again on a `load` when that append conflicts.
 */
export function createSessionViews(
  eventLog: EventLog,
  options: {
    idleMs?: number;
    now?: () => number;
    heads?: HeadsHeard;
    snapshots?: ViewSnapshots;
  } = {},
): SessionViews {
  const idleMs = options.idleMs ?? DEFAULT_IDLE_RELEASE_MS;
  const snapshots = createViewSnapshotKeeper(options.snapshots);
  const now = options.now ?? Date.now;
  const heads = options.heads;
  const views = new Map<string, Entry>();
  /** The highest seq heard for each session while a read of it is under way (how many, and the seq). */
  const reading = new Map<string, { count: number; heard: number }>();
  /** Counts the losses of the listening connection, so a read that spans one is not trusted. */
  let deafness = 0;
  heads?.watchHeads({
    heard(sessionId, lastSeq) {
      const entry = views.get(sessionId);
      if (entry !== undefined) entry.heard = Math.max(entry.heard, lastSeq);
      const read = reading.get(sessionId);
      if (read !== undefined) read.heard = Math.max(read.heard, lastSeq);
    },
    deaf() {
      deafness += 1;
      for (const entry of views.values()) entry.heard = Number.POSITIVE_INFINITY;
    },
  });

  /**
   * Brings the session's view (by a read of the log, or by folding an append of this process) and keeps it with
   * the highest seq heard meanwhile. A read holds whatever was heard before it began, since a notification
   * follows its commit; a fold holds only what the view held, so it keeps what was heard before it too.
   */
  const keep = async (
    sessionId: string,
    how: 'read' | 'fold',
    bring: () => Promise<SessionView>,
  ) => {
    const listeningBefore = heads?.listening() === true;
    const deafnessBefore = deafness;
    const read = reading.get(sessionId) ?? { count: 0, heard: 0 };
    if (how === 'fold') read.heard = Math.max(read.heard, views.get(sessionId)?.heard ?? 0);
    read.count += 1;
    reading.set(sessionId, read);
    try {
      const view = await bring();
      // A view of no session (an unknown id) is not kept: ids that do not exist must not fill the cache.
      if (view.state.last_seq > 0) {
        // Listening when it began and no loss since: it is listening still (only a loss stops it).
        const heardThroughout = listeningBefore && deafness === deafnessBefore;
        views.set(sessionId, {
          view,
          usedAt: now(),
          heard: heardThroughout ? read.heard : Number.POSITIVE_INFINITY,
        });
      }
      return view;
    } finally {
      read.count -= 1;
      if (read.count === 0) reading.delete(sessionId);
    }
  };

  /** The kept view, else the snapshot's, brought up to date from the log. */
  const read = async (sessionId: string) =>
    refreshSessionView(
      eventLog,
      sessionId,
      views.get(sessionId)?.view ?? (await snapshots.restore(sessionId)),
    );

  return {
    load: (sessionId) => keep(sessionId, 'read', () => read(sessionId)),
    peek(sessionId) {
      const entry = views.get(sessionId);
      // Compared now: the view is folded in place by whoever holds it, past what was heard perhaps. A view kept
      // while deaf, or before a loss, has heard Infinity.
      if (entry === undefined || entry.heard > entry.view.state.last_seq) return undefined;
      entry.usedAt = now();
      return entry.view;
    },
    afterAppend(sessionId, appended) {
      const cached = views.get(sessionId)?.view;
      return cached === undefined
        ? keep(sessionId, 'read', () => read(sessionId))
        : keep(sessionId, 'fold', () => viewAfterAppend(eventLog, sessionId, cached, appended));
    },
    size: () => views.size,
    releaseIdle() {
      let released = 0;
      for (const [sessionId, entry] of views) {
        const unused = now() - entry.usedAt;
        if (unused >= Math.min(idleMs, snapshots.quietMs) && snapshots.worth(sessionId, entry.view))
          snapshots.save(sessionId, entry.view);
        if (unused >= idleMs) {
          views.delete(sessionId);
          snapshots.forget(sessionId);
          released += 1;
        }
      }
      return released;
    },
    async saveSnapshots() {
      for (const [sessionId, entry] of views)
        if (snapshots.worth(sessionId, entry.view)) snapshots.save(sessionId, entry.view);
      await snapshots.settled();
    },
  };
}
