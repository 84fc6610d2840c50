import {
  canRegenerate,
  canRetry,
  canStop,
  decide,
  EVENT_TYPES,
  knownTurn,
  PERSON_ACTOR,
  type ConversationCommand,
  type TurnControlCheck,
} from '../domain/conversation/index.ts';
import { findSession, LaneHeldElsewhereError, type SessionEvent } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { continueTurn, inLane, type TurnResult } from './run-agent-turn.ts';

/** A control the person asked for, recorded; `turn` is the turn it runs (Retry, Regenerate), streaming over SSE. */
export type TurnControlled = {
  ok: true;
  agent: string;
  /** The turn now running (Retry: the same turn; Regenerate: the new one); for Stop, the stopped turn. */
  turn_id: string;
  events: SessionEvent[];
  turn: Promise<TurnResult> | null;
  /** Stop only: the turn runs in another process, which was asked to stop it (`turn.stop_requested`). */
  requested?: boolean;
};

const LANE_ELSEWHERE =
  'the turn runs in another Forja process on this server; wait for it to end, then try again';

type Located = { projectId: string; agent: string } | Refusal;

/** The session and the lane of `turnId`; 404 for an unknown session or turn, 409 for an older turn of a lane. */
async function locate(
  dependencies: ConversationDependencies,
  sessionId: string,
  turnId: string,
  refuseEnded: boolean,
): Promise<Located> {
  const session = await findSession(dependencies.database, sessionId);
  if (session === null) return refusal(404, 'not_found', `No session with id ${sessionId}.`);
  const view = await dependencies.views.load(sessionId);
  const ended = view.state.ended_at_seq;
  if (refuseEnded && ended !== null)
    return refusal(409, 'session_ended', `This session ended at seq ${ended}.`);
  const known = knownTurn(view.state, turnId);
  if (known !== null)
    return {
      projectId: session.project_id,
      agent: 'running' in known ? known.running.agent : known.ended.agent,
    };
  const started = view.events.some(
    (event) =>
      event.type === EVENT_TYPES.turnStarted &&
      (event.payload as { turn_id?: unknown }).turn_id === turnId,
  );
  return started
    ? refusal(409, 'not_last_turn', `turn ${turnId} is not the last turn of its agent's lane`)
    : refusal(404, 'not_found', `No turn with id ${turnId} in session ${sessionId}.`);
}

const refused = (check: TurnControlCheck<unknown>): Refusal =>
  check.ok ? refusal(409, 'conflict', 'refused') : refusal(409, check.rule, check.reason);

/**
 * Stop: the turn running in this process is aborted (its model call settles with what it streamed, ADR 0130) and
 * ends as `turn.stopped` with that text. A turn whose loop does not run here is stopped in its lane; when another
 * process holds the lane, `turn.stop_requested` is appended and that process stops the turn when it hears of it.
 */
export async function stopTurn(
  dependencies: ConversationDependencies,
  sessionId: string,
  turnId: string,
  actor = PERSON_ACTOR,
): Promise<TurnControlled | Refusal> {
  const located = await locate(dependencies, sessionId, turnId, false);
  if ('ok' in located) return located;
  const check = canStop((await dependencies.views.load(sessionId)).state, turnId);
  if (!check.ok) return refused(check);
  const stopped = (await dependencies.stops.stop(turnId, actor))
    ? await stoppedEvent(dependencies, sessionId, turnId)
    : await stopInLane(dependencies, sessionId, located.agent, turnId, actor);
  if ('ok' in stopped) return stopped;
  return {
    ok: true,
    agent: located.agent,
    turn_id: turnId,
    events: [stopped],
    turn: null,
    requested: stopped.type === EVENT_TYPES.turnStopRequested,
  };
}

async function stoppedEvent(
  dependencies: ConversationDependencies,
  sessionId: string,
  turnId: string,
): Promise<SessionEvent | Refusal> {
  const view = await dependencies.views.load(sessionId);
  const event = view.events.findLast(
    (candidate) =>
      candidate.type === EVENT_TYPES.turnStopped &&
      (candidate.payload as { turn_id?: unknown }).turn_id === turnId,
  );
  return (
    event ?? refusal(409, 'turn_not_running', `turn ${turnId} ended before it could be stopped`)
  );
}

/** A turn in progress whose loop is not running here (between an approval and its loop): stopped in its lane. */
async function stopInLane(
  dependencies: ConversationDependencies,
  sessionId: string,
  agent: string,
  turnId: string,
  actor: string,
): Promise<SessionEvent | Refusal> {
  try {
    return await inLane(dependencies, sessionId, agent, 'person', async () => {
      if (await dependencies.stops.stop(turnId, actor))
        return stoppedEvent(dependencies, sessionId, turnId);
      const view = await dependencies.views.load(sessionId);
      const check = canStop(view.state, turnId);
      if (!check.ok) return refused(check);
      const decision = decide({ type: 'StopTurn', turn_id: turnId, text: '', actor }, view.state);
      if (!decision.ok) return refusal(409, 'turn_not_running', decision.reason);
      const appended = await dependencies.eventLog.append(sessionId, decision.events);
      if (!appended.success) return refusal(409, 'conflict', appended.error.message);
      dependencies.liveTurns.publish({
        type: 'agent.done',
        session_id: sessionId,
        agent,
        turn_id: turnId,
        status: 'stopped',
      });
      return appended.events[0]!;
    });
  } catch (error) {
    if (error instanceof LaneHeldElsewhereError)
      return requestStop(dependencies, sessionId, turnId, actor);
    throw error;
  }
}

/** The lane runs in another process: the request is stored for it (it listens while the turn runs, ADR 0220). */
async function requestStop(
  dependencies: ConversationDependencies,
  sessionId: string,
  turnId: string,
  actor: string,
): Promise<SessionEvent | Refusal> {
  const view = await dependencies.views.load(sessionId);
  const check = canStop(view.state, turnId);
  if (!check.ok) return refused(check);
  const decision = decide({ type: 'RequestStop', turn_id: turnId, actor }, view.state);
  if (!decision.ok) return refusal(409, 'turn_not_running', decision.reason);
  const appended = await dependencies.eventLog.append(sessionId, decision.events);
  if (!appended.success) return refusal(409, 'conflict', appended.error.message);
  return appended.events[0]!;
}

/** Retry: the failed turn is in progress again (`turn.retried`) and its loop goes on from its own events. */
export function retryTurn(
  dependencies: ConversationDependencies,
  sessionId: string,
  turnId: string,
  actor = PERSON_ACTOR,
): Promise<TurnControlled | Refusal> {
  return controlInLane(dependencies, sessionId, turnId, (state) => {
    const check = canRetry(state, turnId);
    return check.ok
      ? { command: { type: 'RetryTurn', turn_id: turnId, actor }, turnId }
      : refused(check);
  });
}

/** Regenerate: the lane's last answer leaves the history (`answer.superseded`) and a new turn answers again. */
export function regenerateAnswer(
  dependencies: ConversationDependencies,
  sessionId: string,
  turnId: string,
  actor = PERSON_ACTOR,
): Promise<TurnControlled | Refusal> {
  return controlInLane(dependencies, sessionId, turnId, (state) => {
    const check = canRegenerate(state, turnId);
    const newTurnId = dependencies.newId();
    return check.ok
      ? {
          command: { type: 'RegenerateAnswer', turn_id: turnId, new_turn_id: newTurnId, actor },
          turnId: newTurnId,
        }
      : refused(check);
  });
}

type Planned = { command: ConversationCommand; turnId: string } | Refusal;

/**
 * Decides in the turn's lane (so nothing else of the lane runs between the rule and its events), appends, answers
 * the request, then runs the turn holding the lane. Checked before queueing too, so a refusal does not wait.
 */
async function controlInLane(
  dependencies: ConversationDependencies,
  sessionId: string,
  turnId: string,
  plan: (state: Parameters<typeof canRetry>[0]) => Planned,
): Promise<TurnControlled | Refusal> {
  const located = await locate(dependencies, sessionId, turnId, true);
  if ('ok' in located) return located;
  const first = plan((await dependencies.views.load(sessionId)).state);
  if ('ok' in first) return first;
  const { agent, projectId } = located;
  let answer: (outcome: TurnControlled | Refusal) => void = () => undefined;
  const answered = new Promise<TurnControlled | Refusal>((resolve) => {
    answer = resolve;
  });
  const turn = inLane(dependencies, sessionId, agent, 'person', async (): Promise<TurnResult> => {
    const planned = plan((await dependencies.views.load(sessionId)).state);
    if ('ok' in planned) {
      answer(planned);
      return { status: 'not_started', reason: planned.message };
    }
    const decision = decide(planned.command, (await dependencies.views.load(sessionId)).state);
    if (!decision.ok) {
      answer(refusal(409, 'conflict', decision.reason));
      return { status: 'not_started', reason: decision.reason };
    }
    const appended = await dependencies.eventLog.append(sessionId, decision.events);
    if (!appended.success) {
      answer(refusal(409, 'conflict', appended.error.message));
      return { status: 'not_started', reason: appended.error.message };
    }
    const running = continueTurn(dependencies, sessionId, projectId, agent);
    answer({ ok: true, agent, turn_id: planned.turnId, events: appended.events, turn: running });
    return running;
  });
  turn.catch((error: unknown) => {
    if (error instanceof LaneHeldElsewhereError)
      answer(refusal(409, 'lane_elsewhere', LANE_ELSEWHERE));
    else {
      answer(refusal(409, 'conflict', 'the turn could not be run; see the server log'));
      dependencies.logger.error({ err: error, session_id: sessionId, agent }, 'turn crashed');
    }
  });
  return answered;
}
