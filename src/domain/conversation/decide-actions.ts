import { isPersonActor, PERSON_ACTOR } from './actors.ts';
import type { CommandOf } from './commands.ts';
import type { ConversationState } from './conversation-state.ts';
import { accept, refuse, type Decision } from './decision.ts';
import { SESSION_EVENTS } from './session-events.ts';

/**
 * The person's answer to a proposed action. A proposed tool runs only after the person approves, so no
 * other actor may answer, and only a pending action can be answered (once).
 */
export function decideResolveAction(
  command: CommandOf<'ApproveAction' | 'DenyAction'>,
  state: ConversationState,
): Decision {
  const verb = command.type === 'ApproveAction' ? 'approves' : 'denies';
  if (!isPersonActor(command.actor)) {
    return refuse(
      `only the person (actor "${PERSON_ACTOR}" or a person id) ${verb} a proposed action, not "${command.actor}"`,
    );
  }
  const action = state.pending_actions.find((pending) => pending.action_id === command.action_id);
  if (action === undefined)
    return refuse(`action ${command.action_id} is not pending in this session`);
  if (action.status === 'approved')
    return refuse(`action ${command.action_id} was already approved`);
  // The answer names the lane it holds, so each lane's events can be read apart.
  const lane = {
    agent: action.agent,
    ...(action.turn_id === null ? {} : { turn_id: action.turn_id }),
  };
  if (command.type === 'ApproveAction') {
    return accept(
      SESSION_EVENTS.actionApproved.create(command.actor, {
        v: 1,
        action_id: command.action_id,
        ...lane,
      }),
    );
  }
  const reason = command.reason?.trim();
  const payload = {
    v: 1 as const,
    action_id: command.action_id,
    ...lane,
    ...(reason ? { reason } : {}),
  };
  return accept(SESSION_EVENTS.actionDenied.create(command.actor, payload));
}
