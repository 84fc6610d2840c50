import { CRIATIVO_GREETINGS } from './greetings.ts';
import { canActivate, USER_STARTED_AGENTS } from '../handoffs/agent-activation.ts';
import { AGENT_SLUG_PATTERN } from '../handoffs/handoff.ts';
import { isPersonActor, PERSON_ACTOR, SYSTEM_ACTOR } from './actors.ts';
import type { CommandOf } from './commands.ts';
import { activeAgent, turnInProgress } from './conversation-queries.ts';
import type { ConversationState } from './conversation-state.ts';
import { accept, refuse, type Decision } from './decision.ts';
import { SESSION_EVENTS } from './session-events.ts';

/**
 * Activates an agent by the activation rule over the handoffs the log holds (the `handoffs` table and the
 * `handoff.*` events are written in one transaction, so they agree). A user-started agent is started only
 * by the person; an agent already active is not activated twice.
 */
export function decideActivateAgent(
  command: CommandOf<'ActivateAgent'>,
  state: ConversationState,
): Decision {
  const { agent, actor } = command;
  if (!AGENT_SLUG_PATTERN.test(agent))
    return refuse(`agent: "${agent}" must be an agent slug (${AGENT_SLUG_PATTERN.source})`);
  const active = activeAgent(state, agent);
  if (active !== undefined)
    return refuse(`agent ${agent} is already active in this session (since seq ${active.seq})`);
  const activation = canActivate(agent, state.handoffs);
  if (!activation.allowed) return refuse(activation.reason);
  if (USER_STARTED_AGENTS.has(agent) && activation.handoff === undefined && !isPersonActor(actor)) {
    return refuse(
      `agent ${agent} is started only by the person (actor "${PERSON_ACTOR}" or a person id), not by "${actor}"`,
    );
  }
  const handoffId = activation.handoff?.id ?? null;
  // Criativo, started by the person, greets them: recorded with its activation, so every client shows it.
  const language = command.language ?? 'en';
  const greeting =
    agent === 'criativo' && handoffId === null
      ? { greeting: { language, text: CRIATIVO_GREETINGS[language] } }
      : {};
  return accept(
    SESSION_EVENTS.agentActivated.create(actor, {
      v: 1,
      agent,
      handoff_id: handoffId,
      ...greeting,
    }),
  );
}

/**
 * Opens a turn in an agent's lane: turns of one agent run one at a time, lanes of different agents run side
 * by side; consolidation only after readiness.
 */
export function decideStartTurn(
  command: CommandOf<'StartTurn'>,
  state: ConversationState,
): Decision {
  const { agent, turn_id, kind } = command;
  if (turn_id.trim() === '') return refuse('turn_id: must not be empty');
  if (activeAgent(state, agent) === undefined) {
    return refuse(
      `agent ${agent} is not active in this session; a turn runs only for an active agent`,
    );
  }
  const running = turnInProgress(state, agent);
  if (running !== null) {
    return refuse(
      `turn ${running.turn_id} of agent ${agent} is in progress (started at seq ${running.seq}); turns of one agent run one at a time`,
    );
  }
  if (kind === 'consolidation' && !state.readiness.confirmed) {
    return refuse(
      'a consolidation turn runs only after the person confirms readiness ("Estou pronto para produzir")',
    );
  }
  return accept(SESSION_EVENTS.turnStarted.create(agent, { v: 1, agent, turn_id, kind }));
}

/**
 * Closes a turn in progress without a response: a provider error, a refused budget, or a turn found
 * unfinished when a runtime rehydrates after a crash (so the conversation can go on). Only that turn's lane.
 */
export function decideFailTurn(command: CommandOf<'FailTurn'>, state: ConversationState): Decision {
  const running = state.turns_in_progress.find((turn) => turn.turn_id === command.turn_id);
  if (running === undefined) {
    const open = state.turns_in_progress
      .map((turn) => `${turn.turn_id} (${turn.agent})`)
      .join(', ');
    return refuse(
      `turn ${command.turn_id} is not in progress (${open === '' ? 'no turn is in progress' : `in progress: ${open}`})`,
    );
  }
  return accept(
    SESSION_EVENTS.turnFailed.create(SYSTEM_ACTOR, {
      v: 1,
      turn_id: command.turn_id,
      agent: running.agent,
      reason: command.reason,
    }),
  );
}

/**
 * The person's message, for `to` (resolved by the caller: named, or the session's current addressee) or for
 * nobody yet (null: no agent is active). A named addressee must be active; the refusal lists who is.
 */
export function decidePostMessage(
  command: CommandOf<'PostMessage'>,
  state: ConversationState,
): Decision {
  const { to, text } = command;
  if (state.ended_at_seq !== null)
    return refuse(
      `this session ended at seq ${state.ended_at_seq}; open a new session to go on`,
      'session_ended',
    );
  if (to !== null && activeAgent(state, to) === undefined) {
    const active = state.active_agents.map((entry) => entry.agent);
    return refuse(
      `to: agent "${to}" is not active in this session; active: ${active.length === 0 ? '(none)' : active.join(', ')}`,
    );
  }
  return accept(
    SESSION_EVENTS.chatMessage.create(
      command.actor ?? PERSON_ACTOR,
      to === null ? { v: 1, text } : { v: 1, text, to },
    ),
  );
}
