import type { ConversationDependencies } from './conversation-dependencies.ts';
import { startPendingKickoffs } from './start-pending-kickoffs.ts';

/**
 * After the person answers a proposed action, another look for kickoffs still owed (one lost to a stop, or
 * whose lane was busy): each runs in its own lane beside the resumed turn. Queued before the caller gets its
 * answer, so `idle(sessionId)` waits for both.
 */
export async function startKickoffsAfterAction(
  dependencies: ConversationDependencies,
  actionId: string,
): Promise<void> {
  const found = await dependencies.database.query<{ session_id: string }>(
    "select session_id from session_events where type = 'action.proposed' and payload->>'action_id' = $1 limit 1",
    [actionId],
  );
  const sessionId = found.rows[0]?.session_id;
  if (sessionId !== undefined) void startPendingKickoffs(dependencies, sessionId);
}
