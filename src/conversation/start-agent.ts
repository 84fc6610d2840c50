import {
  type GreetingLanguage,
  PERSON_ACTOR,
  writtenBeforeStart,
} from '../domain/conversation/index.ts';
import { findSession, type SessionEvent } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { runAgentTurn } from './run-agent-turn.ts';
import { handleConversationCommand } from './session-command.ts';

/**
 * `POST /api/sessions/:id/agents/:slug/start`: the activation rule (an accepted handoff addressed to the
 * agent, or a user-started agent) decides before anything runs; a refusal is a 409 with the reason. When
 * the person wrote before starting it, the agent's first turn starts at once and answers that (ADR 0190);
 * otherwise it waits for the person's first message. Criativo's greeting, in `language`, is recorded with its
 * activation (ADR 0419), never asked of the model.
 */
export async function startAgent(
  dependencies: ConversationDependencies,
  sessionId: string,
  agent: string,
  actor = PERSON_ACTOR,
  language?: GreetingLanguage,
): Promise<{ ok: true; event: SessionEvent } | Refusal> {
  const session = await findSession(dependencies.database, sessionId);
  if (session === null) return refusal(404, 'not_found', `No session with id ${sessionId}.`);
  const handled = await handleConversationCommand(
    dependencies,
    sessionId,
    { type: 'ActivateAgent', agent, actor, ...(language === undefined ? {} : { language }) },
    { what: `activating ${agent}`, code: 'activation_refused' },
  );
  if (!handled.ok) return handled;
  const outcome = { ok: true as const, event: handled.events[0]! };
  const view = await dependencies.views.load(sessionId);
  if (writtenBeforeStart(view.state, agent).length > 0)
    runAgentTurn(dependencies, {
      sessionId,
      projectId: session.project_id,
      agent,
      kind: 'message',
      priority: 'person',
    }).catch((error: unknown) =>
      dependencies.logger.error({ err: error, session_id: sessionId, agent }, 'turn crashed'),
    );
  return outcome;
}
