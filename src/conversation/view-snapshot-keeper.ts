import type { SessionView } from '../agents/index.ts';

/** Where views are snapshotted (ADR 0426): the store's table, read and written by this version of the fold. */
export interface ViewSnapshots {
  /** The session's view from its snapshot, or null when it has none that this fold reads. */
  load(sessionId: string): Promise<SessionView | null>;
  /** Writes the view as its session's snapshot; the seq it holds, or null when it is too large to keep. */
  save(view: SessionView): Promise<number | null>;
  /** Events beyond the session's last snapshot that make a new one worth writing (default 1,000). */
  afterEvents?: number;
  /** How long a view goes unused before it is snapshotted while still kept (default one minute). */
  quietMs?: number;
  /** A snapshot that could not be read or written; the view is folded from the log instead. */
  onError?: (error: unknown) => void;
}

export const DEFAULT_SNAPSHOT_AFTER_EVENTS = 1_000;
export const DEFAULT_SNAPSHOT_QUIET_MS = 60_000;

/**
 * Keeps the sessions' snapshots for the session views: restores a view from its snapshot when none is kept,
 * and writes one, in the background, when the view has gone at least `afterEvents` (and a tenth of the
 * snapshot's seq, so a long session is not copied over and over) beyond its last. Without `snapshots`, it
 * restores nothing and writes nothing.
 */
export function createViewSnapshotKeeper(snapshots: ViewSnapshots | undefined) {
  const afterEvents = snapshots?.afterEvents ?? DEFAULT_SNAPSHOT_AFTER_EVENTS;
  const report = snapshots?.onError ?? (() => {});
  /** The seq of each kept session's newest snapshot this process read or wrote. */
  const snapshotSeqs = new Map<string, number>();
  const restoring = new Map<string, Promise<SessionView | undefined>>();
  const writing = new Map<string, Promise<void>>();

  const restoreNow = async (sessionId: string) => {
    try {
      const view = await snapshots!.load(sessionId);
      if (view === null) return undefined;
      snapshotSeqs.set(sessionId, Math.max(snapshotSeqs.get(sessionId) ?? 0, view.state.last_seq));
      return view;
    } catch (error) {
      report(error);
      return undefined;
    } finally {
      restoring.delete(sessionId);
    }
  };

  return {
    quietMs: snapshots?.quietMs ?? DEFAULT_SNAPSHOT_QUIET_MS,
    /** The view the session's snapshot holds, or undefined; two loads at once read it once. */
    restore(sessionId: string): Promise<SessionView | undefined> {
      if (snapshots === undefined) return Promise.resolve(undefined);
      const under = restoring.get(sessionId);
      if (under !== undefined) return under;
      const restored = restoreNow(sessionId);
      restoring.set(sessionId, restored);
      return restored;
    },
    /** Whether the view is far enough beyond the session's last snapshot to write another. */
    worth(sessionId: string, view: SessionView): boolean {
      if (snapshots === undefined || writing.has(sessionId)) return false;
      const since = snapshotSeqs.get(sessionId) ?? 0;
      return view.state.last_seq - since >= Math.max(afterEvents, since / 10);
    },
    /** Writes the view's snapshot in the background; its text is taken now, at the view's current seq. */
    save(sessionId: string, view: SessionView): void {
      if (snapshots === undefined) return;
      const before = snapshotSeqs.get(sessionId);
      snapshotSeqs.set(sessionId, view.state.last_seq);
      const written = snapshots
        .save(view)
        .then(
          // A view too large to keep is not tried again before it has grown by as much again.
          () => {},
          (error: unknown) => {
            if (before === undefined) snapshotSeqs.delete(sessionId);
            else snapshotSeqs.set(sessionId, before);
            report(error);
          },
        )
        .finally(() => writing.delete(sessionId));
      writing.set(sessionId, written);
    },
    /** The session's view was released: what its snapshot holds is read again with the next view. */
    forget(sessionId: string): void {
      snapshotSeqs.delete(sessionId);
    },
    /** Every write under way, finished. */
    async settled(): Promise<void> {
      await Promise.all(writing.values());
    },
  };
}
