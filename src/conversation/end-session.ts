import type { SessionEndCompanion } from '../agents/index.ts';
import {
  MEMORY_EVENTS,
  classifySessionEnd,
  type SessionEndReason,
} from '../domain/memory/index.ts';
import { PERSON_ACTOR } from '../domain/conversation/index.ts';
import { MEMORY_EVENT_TYPES } from '../memory/index.ts';
import { findSession, type SessionEvent } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { runSessionHooks } from './run-session-hooks.ts';
import { handleCommand } from './session-command.ts';
import { SESSION_LANE } from './session-queue.ts';

export interface EndedSession {
  ok: true;
  event: SessionEvent;
  reason: SessionEndReason;
  /** The companions that run after the end (queued in the session; `idle` waits for them). */
  companions: string[];
}

/**
 * `POST /api/sessions/:id/end`: appends `session.ended` with the reason `classifySessionEnd` gives the log
 * (completed, abandoned, blocked, budget), then fires the `session_end` hooks. Then each enabled companion (Psicólogo, Anamnese) runs in the
 * session's queue with that reason as its trigger; their failures are logged, never the caller's.
 */
export async function endSession(
  dependencies: ConversationDependencies,
  companions: readonly SessionEndCompanion[],
  sessionId: string,
  actor = PERSON_ACTOR,
): Promise<EndedSession | Refusal> {
  const session = await findSession(dependencies.database, sessionId);
  if (session === null) return refusal(404, 'not_found', `No session with id ${sessionId}.`);
  const handled = await handleCommand(dependencies, sessionId, {
    what: 'ending the session',
    decide: (view) => {
      const earlier = view.events.find((event) => event.type === MEMORY_EVENT_TYPES.sessionEnded);
      if (earlier !== undefined)
        return refusal(
          409,
          'already_ended',
          `Session ${sessionId} already ended (event #${earlier.seq}).`,
        );
      const reason = classifySessionEnd(view.events);
      return {
        ok: true,
        events: [MEMORY_EVENTS.sessionEnded.create(actor, { v: 1, reason })],
        value: reason,
      };
    },
  });
  if (!handled.ok) return handled;
  await dependencies.views.load(sessionId);
  const ended: EndedSession = {
    ok: true,
    event: handled.events[0]!,
    reason: handled.value,
    companions: [],
  };
  await runSessionHooks(dependencies, 'session_end', {
    session_id: sessionId,
    project_id: session.project_id,
    reason: ended.reason,
  });
  const running = companions.filter((companion) => companion.enabled());
  for (const companion of running) {
    const trigger = { projectId: session.project_id, sessionId, reason: ended.reason };
    void dependencies.queue
      .enqueue(sessionId, SESSION_LANE, () => companion.run(trigger))
      .then(async (outcome) => {
        dependencies.logger.info(
          { session_id: sessionId, companion: companion.name, ...outcome },
          'companion ran after the session ended',
        );
        await dependencies.views.load(sessionId);
      })
      .catch((error: unknown) =>
        dependencies.logger.error(
          { err: error, session_id: sessionId, companion: companion.name },
          'companion crashed',
        ),
      );
  }
  return { ...ended, companions: running.map((companion) => companion.name) };
}
