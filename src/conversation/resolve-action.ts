import { decide, PERSON_ACTOR } from '../domain/conversation/index.ts';
import { findSession } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { continueTurn, type TurnResult } from './run-agent-turn.ts';

export interface ActionResolution {
  ok: true;
  /** The resumed loop: with an approval, it runs the action (exactly once) and goes on. */
  turn: Promise<TurnResult>;
}

/**
 * The person's answer to a proposed action. Approval appends `action.approved` (once: a second approval is
 * refused) and resumes the paused loop, which runs the tool and records its `tool.completed`. Denial
 * appends `action.denied` with the tool's answer for the model, and the loop goes on without it.
 */
export async function resolveAction(dependencies: ConversationDependencies, actionId: string, answer: { approve: true } | { approve: false; reason?: string }, actor = PERSON_ACTOR): Promise<ActionResolution | Refusal> {
  const found = await dependencies.database.query<{ session_id: string }>(
    "select session_id from session_events where type = 'action.proposed' and payload->>'action_id' = $1 limit 1",
    [actionId],
  );
  const sessionId = found.rows[0]?.session_id;
  if (sessionId === undefined) return refusal(404, 'not_found', `No proposed action with id ${actionId}.`);
  const session = (await findSession(dependencies.database, sessionId))!;
  const resolved = await dependencies.queue.enqueue(sessionId, async () => {
    const view = await dependencies.views.load(sessionId);
    const action = view.state.pending_actions.find((pending) => pending.action_id === actionId);
    const command = answer.approve
      ? ({ type: 'ApproveAction', action_id: actionId, actor } as const)
      : ({ type: 'DenyAction', action_id: actionId, actor, ...(answer.reason === undefined ? {} : { reason: answer.reason }) } as const);
    const decision = decide(command, view.state);
    if (!decision.ok || action === undefined) return refusal(409, 'action_not_pending', decision.ok ? `action ${actionId} is not pending` : decision.reason);
    const events = [...decision.events];
    if (!answer.approve && action.tool_call_id !== null) {
      const because = answer.reason?.trim() ? `: ${answer.reason.trim()}` : '';
      events.push({ type: 'tool.completed', actor: action.agent, payload: { v: 1, agent: action.agent, tool_call_id: action.tool_call_id, tool: action.tool, args: action.args, ok: false, result: `The person denied this action${because}. It was not run.` } });
    }
    const appended = await dependencies.eventLog.append(sessionId, events, { expectedSeq: view.state.last_seq });
    if (!appended.success) return refusal(409, 'conflict', appended.error.message);
    return { ok: true as const, agent: action.agent };
  });
  if (!resolved.ok) return resolved;
  const turn = dependencies.queue.enqueue(sessionId, () => continueTurn(dependencies, sessionId, session.project_id, resolved.agent));
  turn.catch((error: unknown) => dependencies.logger.error({ err: error, session_id: sessionId }, 'resumed turn crashed'));
  return { ok: true, turn };
}
