import type { WorktreeUpdate } from '../workspace/index.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';

/** Appends the line's `events` and reloads the session's view; a failed append throws naming the first. */
export async function recordLineEvents(
  dependencies: ConversationDependencies,
  sessionId: string,
  events: Array<{ type: string; actor: string; payload: unknown }>,
): Promise<void> {
  const appended = await dependencies.eventLog.append(sessionId, events);
  if (!appended.success)
    throw new Error(`could not record ${events[0]!.type}: ${appended.error.message}`);
  await dependencies.views.load(sessionId);
}

/** What an event records of `dev` merged into a worktree: the merge commit, or why not and the paths, bounded. */
export function worktreeUpdateFields(
  update: WorktreeUpdate,
): { commit: string } | { reason: string; conflicts: string[] } {
  return update.ok
    ? { commit: update.commit }
    : { reason: update.reason.slice(0, 2000), conflicts: update.conflicts.slice(0, 200) };
}
