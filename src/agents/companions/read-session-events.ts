import type { EventLog, SessionEvent } from '../../store/index.ts';

const PAGE = 1000;

/** Every event of a session, in seq order. */
export async function readSessionEvents(
  eventLog: EventLog,
  sessionId: string,
): Promise<SessionEvent[]> {
  const events: SessionEvent[] = [];
  for (;;) {
    const page = await eventLog.read(sessionId, { afterSeq: events.at(-1)?.seq ?? 0, limit: PAGE });
    events.push(...page);
    if (page.length < PAGE) return events;
  }
}
