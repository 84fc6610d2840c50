import { decide, rehydrate } from '../domain/conversation/index.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';
import { continueTurn, type TurnResult } from './run-agent-turn.ts';

/**
 * At start-up: every session whose log shows a turn in progress (the process stopped during it) resumes it
 * from the log. Turns waiting for an approval stay paused; the others call the model again or run the tool
 * calls that have no recorded result. Nothing committed is lost and no response is written twice, because
 * each step is decided from what the log holds.
 */
export async function resumeInterruptedTurns(dependencies: ConversationDependencies): Promise<Array<{ sessionId: string; result: Promise<TurnResult> }>> {
  const candidates = await dependencies.database.query<{ session_id: string; project_id: string }>(
    // Sessions whose last turn event leaves a turn open: a start, or a response that still has tool calls.
    `select s.id as session_id, s.project_id from sessions s
     join lateral (
       select e.type, e.payload from session_events e
       where e.session_id = s.id and e.type in ('turn.started', 'turn.failed', 'agent.response', 'toolloop.limit_reached')
       order by e.seq desc limit 1
     ) last_turn_event on true
     where last_turn_event.type = 'turn.started' or (last_turn_event.type = 'agent.response' and last_turn_event.payload ? 'tool_calls')`,
  );
  const resumed: Array<{ sessionId: string; result: Promise<TurnResult> }> = [];
  for (const { session_id: sessionId, project_id: projectId } of candidates.rows) {
    const events = await dependencies.eventLog.read(sessionId, { limit: 1_000_000 });
    const state = rehydrate(events);
    const turn = state.turn_in_progress;
    if (turn === null) continue;
    if (turn.kind === 'consolidation') {
      // The brief is decided by one model call: rather than guess, close the turn; pressing the button again retries.
      const failed = decide({ type: 'FailTurn', turn_id: turn.turn_id, reason: 'interrupted' }, state);
      if (failed.ok) await dependencies.eventLog.append(sessionId, failed.events, { expectedSeq: state.last_seq });
      continue;
    }
    dependencies.logger.info({ session_id: sessionId, agent: turn.agent, turn_id: turn.turn_id }, 'resuming a turn interrupted by a stop');
    resumed.push({ sessionId, result: dependencies.queue.enqueue(sessionId, () => continueTurn(dependencies, sessionId, projectId, turn.agent)) });
  }
  return resumed;
}
