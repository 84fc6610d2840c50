import { PERSON_ACTOR } from '../domain/conversation/index.ts';
import { findSession, type SessionEvent } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { sessionEndedSeq } from '../agents/runtime/session-view.ts';
import { respondingAgent } from './responding-agent.ts';
import { runAgentTurn, type TurnResult } from './run-agent-turn.ts';

export interface PostedMessage {
  ok: true;
  event: SessionEvent;
  /** The turn the message started, when an agent answers in this session; it streams over SSE. */
  turn: Promise<TurnResult> | null;
}

/**
 * The person's message: stored first (nothing the person said is ever lost to a failing model), then one
 * streaming turn of the agent the person is talking to, if any (ADR 0008: one message = one turn).
 */
export async function postMessage(dependencies: ConversationDependencies, sessionId: string, text: string, actor = PERSON_ACTOR): Promise<PostedMessage | Refusal> {
  const session = await findSession(dependencies.database, sessionId);
  if (session === null) return refusal(404, 'not_found', `No session with id ${sessionId}.`);
  const before = await dependencies.views.load(sessionId);
  const endedSeq = sessionEndedSeq(before);
  if (endedSeq !== null) return refusal(409, 'session_ended', `This session ended at seq ${endedSeq}; open a new session to go on.`);
  const appended = await dependencies.eventLog.append(sessionId, [{ type: 'chat.message', actor, payload: { v: 1, text } }]);
  if (!appended.success) return refusal(404, 'not_found', appended.error.message);
  const view = await dependencies.views.load(sessionId);
  const agent = respondingAgent(view.state, dependencies.catalog);
  const turn = agent === null ? null : runAgentTurn(dependencies, { sessionId, projectId: session.project_id, agent, kind: 'message' });
  turn?.catch((error: unknown) => dependencies.logger.error({ err: error, session_id: sessionId, agent }, 'turn crashed'));
  return { ok: true, event: appended.events[0]!, turn };
}
