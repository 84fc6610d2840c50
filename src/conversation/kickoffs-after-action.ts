import type { ConversationDependencies } from './conversation-dependencies.ts';
import { startPendingKickoffs } from './start-pending-kickoffs.ts';

/**
 * After the person answers a proposed action, the resumed turn runs first and then any kickoff that was
 * waiting for that turn to end (turns of one session run one at a time). Queued before the caller gets its
 * answer, so `idle(sessionId)` waits for both.
 */
export async function startKickoffsAfterAction(dependencies: ConversationDependencies, actionId: string): Promise<void> {
  const found = await dependencies.database.query<{ session_id: string }>("select session_id from session_events where type = 'action.proposed' and payload->>'action_id' = $1 limit 1", [actionId]);
  const sessionId = found.rows[0]?.session_id;
  if (sessionId !== undefined) void startPendingKickoffs(dependencies, sessionId);
}
