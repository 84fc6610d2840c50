import { decide, PERSON_ACTOR } from '../domain/conversation/index.ts';
import type { SessionEvent } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { sessionProjectId } from '../agents/index.ts';
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
  // One read of the log: the view, whose `session.created` also says the session exists and its project.
  const before = await dependencies.views.load(sessionId);
  const projectId = sessionProjectId(before);
  if (projectId === null) return refusal(404, 'not_found', `No session with id ${sessionId}.`);
  const addressee = to ?? respondingAgent(before.state, dependencies.catalog);
  const decision = decide({ type: 'PostMessage', text, to: addressee, actor }, before.state);
  if (!decision.ok) return refusal(409, decision.code ?? 'not_active', decision.reason);
  // No expected version, and not through `handleCommand` (ADR 0250): the person's message is stored at once,
  // never queued behind session-wide work nor retried while lanes append; what was checked (the addressee is
  // active) never stops being true.
  const appended = await dependencies.eventLog.append(sessionId, decision.events);
  if (!appended.success) return refusal(404, 'not_found', appended.error.message);
  await dependencies.views.afterAppend(sessionId, appended.events);
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
