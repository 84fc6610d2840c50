import { decide, PERSON_ACTOR, type NewSessionEvent } from '../domain/conversation/index.ts';
import type { AppendOutcome, SessionEvent } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { onKeptViewFirst } from './expected-version.ts';
import { sessionProjectId, type SessionView } from '../agents/index.ts';
import { respondingAgent } from './responding-agent.ts';
import { runAgentTurn, type TurnResult } from './run-agent-turn.ts';

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
 * one streaming turn in that agent's lane (ADR 0008: one message = one turn). A lane that is busy takes the
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
  return onKeptViewFirst(
    dependencies.views,
    sessionId,
    async (kept) => {
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
        });
  turn?.catch((error: unknown) =>
    dependencies.logger.error(
      { err: error, session_id: sessionId, agent: addressee },
      'turn crashed',
    ),
  );
  return { ok: true, event: appended.events[0]!, to: addressee, turn };
}
