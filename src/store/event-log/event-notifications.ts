import type { Database } from '../database.ts';
import { readEvents } from './read-events.ts';
import type { SessionEvent } from './session-event.ts';

/** The channel `forja_append_events` notifies with `<session_id>:<last_seq>` on commit. */
export const SESSION_EVENTS_CHANNEL = 'forja_session_events';

export type SessionEventsListener = (events: SessionEvent[]) => void;

export interface EventNotifications {
  /** Calls `listener` with each session event committed after `afterSeq`, in seq order, each exactly once. */
  subscribe(sessionId: string, afterSeq: number, listener: SessionEventsListener): () => void;
  close(): Promise<void>;
}

/**
 * Live session events for streams (SSE), from PostgreSQL's LISTEN/NOTIFY: works for appends made by this
 * process or any other process on the same server. A notification only says "session S reached seq N"; the
 * events themselves are read from the log, so nothing is lost when notifications coalesce.
 */
export async function createEventNotifications(database: Database): Promise<EventNotifications> {
  const subscriptions = new Map<string, Set<Subscription>>();
  const unlisten = await database.listen(SESSION_EVENTS_CHANNEL, (payload) => {
    const separator = payload.lastIndexOf(':');
    const sessionId = payload.slice(0, separator);
    for (const subscription of subscriptions.get(sessionId) ?? []) subscription.wake();
  });

  function subscribe(sessionId: string, afterSeq: number, listener: SessionEventsListener): () => void {
    const subscription = new Subscription(database, sessionId, afterSeq, listener);
    const forSession = subscriptions.get(sessionId) ?? new Set();
    forSession.add(subscription);
    subscriptions.set(sessionId, forSession);
    // Catch up once now: events committed between the caller's read and this subscription are not missed.
    subscription.wake();
    return () => {
      subscription.closed = true;
      forSession.delete(subscription);
      if (forSession.size === 0) subscriptions.delete(sessionId);
    };
  }

  return { subscribe, close: unlisten };
}

/** One listener's cursor. Reads are serialised per subscription so events are delivered in order, once. */
class Subscription {
  closed = false;
  private reading: Promise<void> | null = null;
  private wokenWhileReading = false;
  private readonly database: Database;
  private readonly sessionId: string;
  private lastSeq: number;
  private readonly listener: SessionEventsListener;

  constructor(database: Database, sessionId: string, afterSeq: number, listener: SessionEventsListener) {
    this.database = database;
    this.sessionId = sessionId;
    this.lastSeq = afterSeq;
    this.listener = listener;
  }

  wake(): void {
    if (this.reading) {
      this.wokenWhileReading = true;
      return;
    }
    this.reading = this.readNew().finally(() => {
      this.reading = null;
      if (this.wokenWhileReading && !this.closed) {
        this.wokenWhileReading = false;
        this.wake();
      }
    });
  }

  private async readNew(): Promise<void> {
    while (!this.closed) {
      const events = await readEvents(this.database, this.sessionId, { afterSeq: this.lastSeq, limit: 500 }).catch(() => []);
      if (events.length === 0 || this.closed) return;
      this.lastSeq = events[events.length - 1]!.seq;
      this.listener(events);
    }
  }
}
