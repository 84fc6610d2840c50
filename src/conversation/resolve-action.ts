import { decide, PERSON_ACTOR, SESSION_EVENTS } from '../domain/conversation/index.ts';
import { findSession } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { owedBy } from './owed-turns.ts';
import { continueTurn, inLane, pickUpLane, type TurnResult } from './run-agent-turn.ts';
import { handleCommand } from './session-command.ts';

export interface ActionResolution {
  ok: true;
  /** The resumed loop: with an approval, it runs the action (exactly once) and goes on. */
  turn: Promise<TurnResult>;
}

/**
 * The person's answer to a proposed action. Approval appends `action.approved` (once: a second approval is
 * refused) and resumes the paused loop in its lane, which runs the tool and records its `tool.completed`.
 * Denial appends `action.denied` with the tool's answer for the model, and the loop goes on without it.
 * Only the action's lane waited; a message the person sent that lane meanwhile is answered after the turn.
 */
export async function resolveAction(
  dependencies: ConversationDependencies,
  actionId: string,
  answer: { approve: true } | { approve: false; reason?: string },
  actor = PERSON_ACTOR,
): Promise<ActionResolution | Refusal> {
  const found = await dependencies.database.query<{ session_id: string }>(
    "select session_id from session_events where type = 'action.proposed' and payload->>'action_id' = $1 limit 1",
    [actionId],
  );
  const sessionId = found.rows[0]?.session_id;
  if (sessionId === undefined)
    return refusal(404, 'not_found', `No proposed action with id ${actionId}.`);
  const session = (await findSession(dependencies.database, sessionId))!;
  const handled = await handleCommand(dependencies, sessionId, {
    what: `the answer to action ${actionId}`,
    decide: (view) => {
      const action = view.state.pending_actions.find((pending) => pending.action_id === actionId);
      const command = answer.approve
        ? ({ type: 'ApproveAction', action_id: actionId, actor } as const)
        : ({
            type: 'DenyAction',
            action_id: actionId,
            actor,
            ...(answer.reason === undefined ? {} : { reason: answer.reason }),
          } as const);
      const decision = decide(command, view.state);
      if (!decision.ok || action === undefined)
        return refusal(
          409,
          'action_not_pending',
          decision.ok ? `action ${actionId} is not pending` : decision.reason,
        );
      const events = [...decision.events];
      if (!answer.approve && action.tool_call_id !== null) {
        const because = answer.reason?.trim() ? `: ${answer.reason.trim()}` : '';
        const lane = {
          agent: action.agent,
          ...(action.turn_id === null ? {} : { turn_id: action.turn_id }),
        };
        events.push(
          SESSION_EVENTS.toolCompleted.create(action.agent, {
            v: 1,
            ...lane,
            tool_call_id: action.tool_call_id,
            tool: action.tool,
            args: action.args,
            ok: false,
            result: `The person denied this action${because}. It was not run.`,
          }),
        );
      }
      return { ok: true, events, value: action.agent };
    },
  });
  if (!handled.ok) return handled;
  return {
    ok: true,
    turn: resumeAfterPerson(dependencies, sessionId, session.project_id, handled.value),
  };
}

/**
 * The lane that waited for the person (an action approved or denied, a question answered) goes on from the
 * log at once, without waiting for a turn slot; a message the person sent that lane meanwhile is answered
 * after the turn.
 */
export function resumeAfterPerson(
  dependencies: ConversationDependencies,
  sessionId: string,
  projectId: string,
  agent: string,
): Promise<TurnResult> {
  // The person's priority, as a message of theirs has: what they approved runs now, not when a slot frees up.
  const turn = inLane(dependencies, sessionId, agent, 'person', async () => {
    const result = await continueTurn(dependencies, sessionId, projectId, agent);
    const view = await dependencies.views.load(sessionId);
    // A message that reached the lane while it waited for the person is owed its turn now.
    const hasRuntime = (slug: string) => dependencies.catalog.get(slug) !== null;
    if (result.status !== 'paused' && owedBy(view.state, view.events, agent, hasRuntime).length > 0)
      void pickUpLane(dependencies, sessionId, agent).catch(() => undefined);
    return result;
  });
  turn.catch((error: unknown) =>
    dependencies.logger.error({ err: error, session_id: sessionId }, 'resumed turn crashed'),
  );
  return turn;
}
