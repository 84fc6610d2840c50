import { refreshSessionView, viewAfterAppend, type SessionView } from '../agents/index.ts';
import type { EventLog } from '../store/index.ts';
import type { SessionViews } from './conversation-dependencies.ts';

export const DEFAULT_IDLE_RELEASE_MS = 10 * 60_000;

/**
 * One rehydrated view per session, brought up to date from the log on every use (a restart simply starts
 * with none: the first use folds the whole log). Views unused for `idleMs` are released.
 */
export function createSessionViews(
  eventLog: EventLog,
  options: { idleMs?: number; now?: () => number } = {},
): SessionViews {
  const idleMs = options.idleMs ?? DEFAULT_IDLE_RELEASE_MS;
  const now = options.now ?? Date.now;
  const views = new Map<string, { view: SessionView; usedAt: number }>();
  return {
    async load(sessionId) {
      const view = await refreshSessionView(eventLog, sessionId, views.get(sessionId)?.view);
      // A view of no session (an unknown id) is not kept: ids that do not exist must not fill the cache.
      if (view.state.last_seq > 0) views.set(sessionId, { view, usedAt: now() });
      return view;
    },
    async afterAppend(sessionId, appended) {
      const cached = views.get(sessionId)?.view;
      const view =
        cached === undefined
          ? await refreshSessionView(eventLog, sessionId)
          : await viewAfterAppend(eventLog, sessionId, cached, appended);
      views.set(sessionId, { view, usedAt: now() });
      return view;
    },
    store(sessionId, view) {
      views.set(sessionId, { view, usedAt: now() });
    },
    size: () => views.size,
    releaseIdle() {
      let released = 0;
      for (const [sessionId, entry] of views) {
        if (now() - entry.usedAt >= idleMs) {
          views.delete(sessionId);
          released += 1;
        }
      }
      return released;
    },
  };
}
