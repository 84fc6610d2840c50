import type { SessionView } from '../agents/runtime/session-view.ts';
import type { AppendOutcome } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';

/** How often a session-wide operation decides again after a lane appended between its read and its write. */
export const STALE_VIEW_ATTEMPTS = 25;

/**
 * Thrown by an attempt whose append met a newer session than the view it decided on (inside a transaction,
 * throwing is also the rollback of the rows written with it). `retryOnStaleView` decides again.
 */
export class StaleViewError extends Error {
  override readonly name = 'StaleViewError';
}

/** The events of a successful append; a conflict throws `StaleViewError`, a missing session throws. */
export function appendedOrStale(outcome: AppendOutcome): Extract<AppendOutcome, { success: true }> {
  if (outcome.success) return outcome;
  if (outcome.error.kind === 'expected_seq_conflict')
    throw new StaleViewError(outcome.error.message);
  throw new Error(outcome.error.message);
}

/**
 * A session-wide operation with an expected version: `attempt` decides on a fresh view and appends with
 * `view.state.last_seq`; when a lane appended in between, it decides again on the new view, and after
 * `STALE_VIEW_ATTEMPTS` refuses with the reason (409) instead of acting on what it no longer knows.
 */
export async function retryOnStaleView<T>(
  dependencies: ConversationDependencies,
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
      if (!(error instanceof StaleViewError)) throw error;
      last = error.message;
    }
  }
  return refusal(
    409,
    'conflict',
    `${what} was decided ${STALE_VIEW_ATTEMPTS} times while the session kept moving (${last}); nothing was done, try again.`,
  );
}
