import { decide, rehydrate } from '../domain/conversation/index.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';
import {
  continueTurn,
  inLane,
  pickUpLane,
  startAndContinue,
  type TurnResult,
} from './run-agent-turn.ts';

/**
 * At start-up: every lane whose log shows a turn in progress (the process stopped during it) resumes it from
 * the log, each in its own lane (so each exactly once) and side by side up to the turn slots. Turns waiting
 * for an approval stay paused; the others call the model again or run the tool calls that have no recorded
 * result. Nothing committed is lost and no response is written twice, because each step is decided from what
 * the lane's events hold.
 */
export async function resumeInterruptedTurns(
  dependencies: ConversationDependencies,
): Promise<Array<{ sessionId: string; agent: string; result: Promise<TurnResult> }>> {
  const candidates = await dependencies.database.query<{ session_id: string; project_id: string }>(
    // Sessions with a started turn that no later event closes (the fold below decides exactly; this only narrows).
    `select s.id as session_id, s.project_id from sessions s
     where exists (
       select 1 from session_events started
       where started.session_id = s.id and started.type = 'turn.started'
         and not exists (
           select 1 from session_events closed
           where closed.session_id = s.id and closed.seq > started.seq
             and closed.payload->>'turn_id' = started.payload->>'turn_id'
             and (closed.type in ('turn.failed', 'toolloop.limit_reached') or (closed.type = 'agent.response' and not closed.payload ? 'tool_calls'))
         )
     )`,
  );
  const resumed: Array<{ sessionId: string; agent: string; result: Promise<TurnResult> }> = [];
  for (const { session_id: sessionId, project_id: projectId } of candidates.rows) {
    const events = await dependencies.eventLog.read(sessionId, { limit: 1_000_000 });
    const state = rehydrate(events);
    for (const turn of state.turns_in_progress) {
      // Shared leases: a lane held by a live process is its own; the others are decided again in the lane.
      if (dependencies.leases?.shared) {
        resumed.push({
          sessionId,
          agent: turn.agent,
          result: pickUpLane(dependencies, sessionId, turn.agent),
        });
        continue;
      }
      if (turn.kind === 'consolidation') {
        // The brief is decided by one model call: rather than guess, close the turn; pressing the button again retries.
        const failed = decide(
          { type: 'FailTurn', turn_id: turn.turn_id, reason: 'interrupted' },
          state,
        );
        if (failed.ok) await dependencies.eventLog.append(sessionId, failed.events);
        continue;
      }
      dependencies.logger.info(
        { session_id: sessionId, agent: turn.agent, turn_id: turn.turn_id },
        'resuming a turn interrupted by a stop',
      );
      const result = inLane(dependencies, sessionId, turn.agent, 'line', () =>
        continueTurn(dependencies, sessionId, projectId, turn.agent),
      );
      resumed.push({ sessionId, agent: turn.agent, result });
    }
  }
  // A message acknowledged (201) but never answered (the process stopped before its turn started) is pending
  // work: its addressee's lane takes a turn for it, after any turn resumed above (issue 18, item 4).
  const unanswered = (scope: string, params: unknown[]) =>
    dependencies.database.query<{ session_id: string; project_id: string; agent: string }>(
      `select m.session_id, s.project_id, m.payload->>'to' as agent from session_events m join sessions s on s.id = m.session_id
       where m.type = 'chat.message' and m.payload ? 'to' and ${scope}
         and not exists (
           select 1 from session_events t
           where t.session_id = m.session_id and t.seq > m.seq and t.type = 'turn.started' and t.payload->>'agent' = m.payload->>'to'
         )
       group by m.session_id, s.project_id, m.payload->>'to'`,
      params,
    );
  for (const { session_id: sessionId, project_id: projectId, agent } of (
    await unanswered('true', [])
  ).rows) {
    if (dependencies.leases?.shared) {
      resumed.push({ sessionId, agent, result: pickUpLane(dependencies, sessionId, agent) });
      continue;
    }
    dependencies.logger.info(
      { session_id: sessionId, agent },
      'answering a message left unanswered by a stop',
    );
    // Decided again in the lane: a message posted since start-up already has its own turn ahead of this one.
    const result = inLane(
      dependencies,
      sessionId,
      agent,
      'person',
      async (): Promise<TurnResult> => {
        const still = await unanswered(`m.session_id = $1 and m.payload->>'to' = $2`, [
          sessionId,
          agent,
        ]);
        if (still.rows.length === 0)
          return { status: 'not_started', reason: 'the message was answered meanwhile' };
        return startAndContinue(dependencies, { sessionId, projectId, agent, kind: 'message' });
      },
    );
    resumed.push({ sessionId, agent, result });
  }
  return resumed;
}
