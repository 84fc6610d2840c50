import type { SessionView } from '../agents/index.ts';
import { AppendConflictError } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';

/** How often a session-wide operation decides again after a lane appended between its read and its write. */
export const STALE_VIEW_ATTEMPTS = 25;

/**
 * Decides first on the kept view, with no read of the log, when this process heard of nothing it lacks
 * (`SessionViews.peek`, ADR 0262); `onKept` appends expecting that view's seq and answers undefined when it
 * must be decided again — its append conflicted, or its rule refused on what may be a stale view. Then, or with
 * no kept view, `onRead` decides on views read from the log, as before.
 */
export async function onKeptViewFirst<T>(
  views: ConversationDependencies['views'],
  sessionId: string,
  onKept: (view: SessionView) => Promise<T | undefined>,
  onRead: () => Promise<T>,
): Promise<T> {
  const kept = views.peek(sessionId);
  const decided = kept === undefined ? undefined : await onKept(kept);
  return decided ?? onRead();
}

/**
 * A session-wide operation with an expected version: `attempt` decides on a fresh view and appends with
 * `view.state.last_seq` (`appendedOrThrow`); when a lane appended in between (the store's typed
 * `AppendConflictError`; inside a transaction, throwing it is also the rollback of the rows written with it),
 * it decides again on the new view, and after `STALE_VIEW_ATTEMPTS` refuses with the reason (409) instead of
 * acting on what it no longer knows. Most callers go through `handleCommand` (session-command.ts).
 */
export async function retryOnStaleView<T>(
  dependencies: Pick<ConversationDependencies, 'views'>,
  sessionId: string,
  what: string,
  attempt: (view: SessionView) => Promise<T>,
): Promise<T | Refusal> {
  let last = '';
  for (let tries = 0; tries < STALE_VIEW_ATTEMPTS; tries += 1) {
    const view = await dependencies.views.load(sessionId);
    try {
      return await attempt(view);
    } catch (error) {
      if (!(error instanceof AppendConflictError)) throw error;
      last = error.message;
    }
  }
  return refusal(
    409,
    'conflict',
    `${what} was decided ${STALE_VIEW_ATTEMPTS} times while the session kept moving (${last}); nothing was done, try again.`,
  );
}
