import type { EventLog, SessionEvent } from '../../store/index.ts';
import { MEMORY_EVENTS } from '../../domain/memory/index.ts';

export interface RagFeedback {
  readonly query: string;
  /** Chunk ids of the hits that helped. */
  readonly helpful: readonly string[];
  readonly notHelpful: readonly string[];
}

/** `rag_feedback`: records which hits helped as a `rag.feedback` event of the session, by who said so. */
export async function recordRagFeedback(
  eventLog: EventLog,
  sessionId: string,
  actor: string,
  feedback: RagFeedback,
): Promise<{ ok: true; event: SessionEvent } | { ok: false; reason: string }> {
  const appended = await eventLog.append(sessionId, [
    MEMORY_EVENTS.ragFeedback.create(actor, {
      v: 1,
      query: feedback.query,
      helpful: [...feedback.helpful],
      not_helpful: [...feedback.notHelpful],
    }),
  ]);
  return appended.success
    ? { ok: true, event: appended.events[0]! }
    : { ok: false, reason: appended.error.message };
}
