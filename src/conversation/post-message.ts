import {
  decide,
  foldEvents,
  PERSON_ACTOR,
  type ConversationState,
  type NewSessionEvent,
} from '../domain/conversation/index.ts';
import { LaneLeaseLostError, type AppendOutcome, type SessionEvent } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { onKeptViewFirst } from './expected-version.ts';
import { sessionProjectId, viewAfterAppend, type SessionView } from '../agents/index.ts';
import { respondingAgent } from './responding-agent.ts';
import {
  continueTurn,
  heldElsewhere,
  inLane,
  runAgentTurn,
  type TurnResult,
} from './run-agent-turn.ts';

export interface PostedMessage {
  ok: true;
  event: SessionEvent;
  /** Who the message is for (null before any agent is active). */
  to: string | null;
  /** The turn the message started, when an agent answers in this session; it streams over SSE. */
  turn: Promise<TurnResult> | null;
}

interface Message {
  text: string;
  to: string | undefined;
  actor: string;
}

/**
 * The person's message to `to` (an agent active in the session) or, without it, to the session's current
 * addressee: stored first with who it is for (nothing the person said is ever lost to a failing model), then
 * one streaming turn in that agent's lane (record ADR 0008: one message = one turn). A lane that is busy takes the
 * turn when its current one ends; other lanes go on meanwhile.
 */
export async function postMessage(
  dependencies: ConversationDependencies,
  sessionId: string,
  text: string,
  to?: string,
  actor = PERSON_ACTOR,
): Promise<PostedMessage | Refusal> {
  const message = { text, to, actor };
  const withTurn = await postWithItsTurn(dependencies, sessionId, message);
  if (withTurn !== undefined && withTurn !== 'stale') return withTurn;
  return onKeptViewFirst(
    dependencies.views,
    sessionId,
    async (kept) => {
      // The kept view was just found stale by the append with its turn: read.
      if (withTurn === 'stale') return undefined;
      const decided = decideMessage(dependencies, sessionId, kept, message);
      if (!decided.ok) return undefined;
      const appended = await dependencies.eventLog.append(sessionId, decided.events, {
        expectedSeq: decided.seen,
      });
      return appended.success ? startTurn(dependencies, sessionId, decided, appended) : undefined;
    },
    // On a view just read there is no expected version (ADR 0250): the person's message is stored at once,
    // never queued behind session-wide work nor retried while lanes append; what was checked (the addressee
    // is active) never stops being true.
    async () => {
      const view = await dependencies.views.load(sessionId);
      const decided = decideMessage(dependencies, sessionId, view, message);
      if (!decided.ok) return decided;
      const appended = await dependencies.eventLog.append(sessionId, decided.events);
      if (!appended.success) return refusal(404, 'not_found', appended.error.message);
      return startTurn(dependencies, sessionId, decided, appended);
    },
  );
}

/**
 * The message and its `turn.started` in one append (ADR 0265), when this process knows the session (a kept view,
 * ADR 0262), the addressee's lane has no work here and its lease is free: the lane is taken first, then both
 * events commit together with the kept view's seq expected, and the turn goes on in the same hold. Nothing is
 * stored until then, so a lane held elsewhere is not told (it would look for a message not yet there); anything
 * else — no kept view, a busy lane, a lane held elsewhere, a refusal, a lost lease — answers undefined and the
 * message takes the usual path: stored alone, then its turn; a conflict answers 'stale', and the usual path
 * reads the view at once.
 */
async function postWithItsTurn(
  dependencies: ConversationDependencies,
  sessionId: string,
  message: Message,
): Promise<PostedMessage | 'stale' | undefined> {
  const kept = dependencies.views.peek(sessionId);
  if (kept === undefined) return undefined;
  const decided = decideMessage(dependencies, sessionId, kept, message);
  const agent = decided.ok ? decided.addressee : null;
  if (!decided.ok || agent === null || dependencies.catalog.get(agent) === null) return undefined;
  if (dependencies.queue.busy(sessionId, agent)) return undefined;
  const {
    promise: posted,
    resolve: answer,
    reject: failed,
  } = Promise.withResolvers<PostedMessage | 'stale' | undefined>();
  const turn: Promise<TurnResult> = inLane(
    dependencies,
    sessionId,
    agent,
    'person',
    async (): Promise<TurnResult> => {
      // The kept view moved on while the lane was taken: decided again the usual way.
      if (kept.state.last_seq !== decided.seen) return notStarted(answer);
      const started = startAfter(dependencies, sessionId, kept.state, decided, agent);
      if (started === undefined) return notStarted(answer);
      const appended = await dependencies.eventLog
        .append(sessionId, [...decided.events, ...started], { expectedSeq: decided.seen })
        .catch((error: unknown) => {
          if (error instanceof LaneLeaseLostError) return undefined;
          throw error;
        });
      if (appended === undefined || !appended.success)
        return notStarted(answer, appended?.success === false ? 'stale' : undefined);
      await dependencies.views.afterAppend(sessionId, appended.events);
      answer({ ok: true, event: appended.events[0]!, to: agent, turn });
      const current = await viewAfterAppend(
        dependencies.eventLog,
        sessionId,
        kept,
        appended.events,
      );
      return continueTurn(dependencies, sessionId, decided.projectId, agent, current);
    },
    { whenHeld: 'refuse' },
  ).catch(heldElsewhere);
  // A lane's work that ended before the message was stored without saying why (held elsewhere) falls back; one
  // that failed (the database) fails the POST, as the usual path would: the append may have committed, so
  // storing the message again could store it twice.
  turn.then(
    () => answer(undefined),
    (error: unknown) => {
      failed(error);
      dependencies.logger.error({ err: error, session_id: sessionId, agent }, 'turn crashed');
    },
  );
  return posted;
}

/** The events of `turn.started` as the state would be once the message's events are in it; undefined if refused. */
function startAfter(
  dependencies: ConversationDependencies,
  sessionId: string,
  state: ConversationState,
  decided: Decided,
  agent: string,
): readonly NewSessionEvent[] | undefined {
  const provisional = decided.events.map((event, index) => ({
    ...event,
    id: dependencies.newId(),
    session_id: sessionId,
    seq: decided.seen + index + 1,
    created_at: new Date().toISOString(),
  }));
  const start = decide(
    {
      type: 'StartTurn',
      agent,
      turn_id: dependencies.newId(),
      kind: 'message',
    },
    foldEvents(state, provisional),
  );
  return start.ok ? start.events : undefined;
}

/** The lane's work did not store the message: the POST goes the usual way (reading first when `stale`). */
function notStarted(answer: (posted: 'stale' | undefined) => void, posted?: 'stale'): TurnResult {
  answer(posted);
  return { status: 'not_started', reason: 'the message goes the usual way' };
}

interface Decided {
  ok: true;
  events: readonly NewSessionEvent[];
  addressee: string | null;
  projectId: string;
  /** The view's last seq when it was decided on. */
  seen: number;
}

function decideMessage(
  dependencies: Pick<ConversationDependencies, 'catalog'>,
  sessionId: string,
  view: SessionView,
  message: Message,
): Decided | Refusal {
  // The view's `session.created` also says the session exists and its project.
  const projectId = sessionProjectId(view);
  if (projectId === null) return refusal(404, 'not_found', `No session with id ${sessionId}.`);
  const addressee = message.to ?? respondingAgent(view.state, dependencies.catalog);
  const decision = decide(
    { type: 'PostMessage', text: message.text, to: addressee, actor: message.actor },
    view.state,
  );
  if (!decision.ok) return refusal(409, decision.code ?? 'not_active', decision.reason);
  return { ok: true, events: decision.events, addressee, projectId, seen: view.state.last_seq };
}

/** The stored message's view carried forward, and the turn it starts in the addressee's lane. */
async function startTurn(
  dependencies: ConversationDependencies,
  sessionId: string,
  decided: Decided,
  appended: Extract<AppendOutcome, { success: true }>,
): Promise<PostedMessage> {
  await dependencies.views.afterAppend(sessionId, appended.events);
  const { addressee, projectId } = decided;
  const turn =
    addressee === null
      ? null
      : runAgentTurn(dependencies, {
          sessionId,
          projectId,
          agent: addressee,
          kind: 'message',
          priority: 'person',
          onlyIfOwed: true,
        });
  turn?.catch((error: unknown) =>
    dependencies.logger.error(
      { err: error, session_id: sessionId, agent: addressee },
      'turn crashed',
    ),
  );
  return { ok: true, event: appended.events[0]!, to: addressee, turn };
}
