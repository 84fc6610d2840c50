import type { Database } from '../database.ts';
import { readEventPage } from './read-events.ts';
import type { SessionEvent } from './session-event.ts';

/** The channel `forja_append_events` notifies with `<session_id>:<last_seq>` on commit. */
export const SESSION_EVENTS_CHANNEL = 'forja_session_events';

/** How many events one read takes, and how many bytes of payload at most (ADR 0307): a feed holds one read. */
const READ_BATCH = 500;
const READ_BYTES = 1024 * 1024;

export type SessionEventsListener = (events: SessionEvent[]) => void;

/**
 * What this process hears of the log's heads: every notification, of every session (`heard`), and the loss of
 * the listening connection (`deaf`: what is appended until it is back is not heard). Session views use it to
 * know when a view may still be current without a read (ADR 0262).
 */
export interface HeadsObserver {
  heard(sessionId: string, lastSeq: number): void;
  deaf(): void;
}

export interface HeadsHeard {
  /** Tells `observer` of every notification and of every loss of the connection, until the returned stop. */
  watchHeads(observer: HeadsObserver): () => void;
  /** Whether the listening connection is up now (lost: false until it is back). */
  listening(): boolean;
}

export interface EventNotifications extends HeadsHeard {
  /** Calls `listener` with each session event committed after `afterSeq`, in seq order, each exactly once. */
  subscribe(sessionId: string, afterSeq: number, listener: SessionEventsListener): () => void;
  /**
   * An append of this process to the session is under way; call the function returned with the events it
   * committed (none when it failed). Meanwhile a notification of the session is not read for: the committed
   * events are handed to the session's feed in memory when they follow what it has read, so the append's own
   * notification finds nothing new (ADR 0210). What they do not cover (another process's append, a gap, a
   * read in flight) is read as before.
   */
  appending(sessionId: string): (committed: readonly SessionEvent[]) => void;
  close(): Promise<void>;
}

/** What the notifications say about their connection; the composition root logs it. */
export interface EventNotificationsLog {
  lost(error: Error, retryInMs: number): void;
  restored(): void;
}

/**
 * Live session events for streams (SSE), from PostgreSQL's LISTEN/NOTIFY: works for appends made by this
 * process or any other process on the same server. A notification only says "session S reached seq N"; the
 * events themselves are read from the log, so nothing is lost when notifications coalesce.
 *
 * One read per append per process, however many clients: each session with subscribers has one feed, which
 * reads the new events once and hands them to every subscriber in memory. A subscriber that starts behind the
 * feed (a resume from Last-Event-ID) catches up with reads of its own first, once. When the listening
 * connection is lost and comes back, every feed reads the log again: what was notified meanwhile is not missed.
 */
export async function createEventNotifications(
  database: Database,
  log?: EventNotificationsLog,
): Promise<EventNotifications> {
  const feeds = new Map<string, SessionFeed>();
  const observers = new Set<HeadsObserver>();
  let listening = true;
  const unlisten = await database.listen(
    SESSION_EVENTS_CHANNEL,
    (payload) => {
      const separator = payload.lastIndexOf(':');
      const sessionId = payload.slice(0, separator);
      const lastSeq = Number(payload.slice(separator + 1));
      feeds.get(sessionId)?.wake(lastSeq);
      for (const observer of observers) observer.heard(sessionId, lastSeq);
    },
    {
      lost: (error, retryInMs) => {
        listening = false;
        for (const observer of observers) observer.deaf();
        log?.lost(error, retryInMs);
      },
      restored: () => {
        listening = true;
        log?.restored();
        for (const feed of feeds.values()) feed.wake();
      },
    },
  );

  function subscribe(
    sessionId: string,
    afterSeq: number,
    listener: SessionEventsListener,
  ): () => void {
    let feed = feeds.get(sessionId);
    const isNew = !feed;
    if (!feed) {
      feed = new SessionFeed(database, sessionId, afterSeq);
      feeds.set(sessionId, feed);
    }
    const subscriber: Subscriber = { lastSeq: afterSeq, listener, closed: false };
    feed.add(subscriber);
    // A new feed reads once now: events committed between the caller's read and this subscription are not
    // missed. An existing feed is up to date; a subscriber behind it is caught up by the feed.
    if (isNew) feed.wake();
    else feed.catchUp();
    const joined = feed;
    return () => {
      subscriber.closed = true;
      joined.remove(subscriber);
      if (joined.isEmpty() && feeds.get(sessionId) === joined) {
        joined.closed = true;
        feeds.delete(sessionId);
      }
    };
  }

  return {
    subscribe,
    appending: (sessionId) => {
      const feed = feeds.get(sessionId);
      if (feed === undefined) return () => undefined;
      feed.ownAppends += 1;
      return (committed) => {
        feed.ownAppends -= 1;
        feed.offer(committed);
      };
    },
    watchHeads(observer) {
      observers.add(observer);
      return () => observers.delete(observer);
    },
    listening: () => listening,
    close: async () => {
      listening = false;
      for (const observer of observers) observer.deaf();
      await unlisten();
    },
  };
}

interface Subscriber {
  /** The last seq this subscriber has been given. */
  lastSeq: number;
  listener: SessionEventsListener;
  closed: boolean;
}

/** One session's reads. Serialised, so every subscriber gets its events in order, once. */
class SessionFeed {
  closed = false;
  private readonly subscribers = new Set<Subscriber>();
  private reading: Promise<void> | null = null;
  /** Appends of this process to the session under way (`appending`). */
  ownAppends = 0;
  private woken = false;
  /** The highest seq a notification announced that has not been read yet; 0 when unknown. */
  private announced = 0;
  private readonly database: Database;
  private readonly sessionId: string;
  /** The last seq the feed has read. */
  private cursor: number;

  constructor(database: Database, sessionId: string, afterSeq: number) {
    this.database = database;
    this.sessionId = sessionId;
    this.cursor = afterSeq;
  }

  add(subscriber: Subscriber): void {
    this.subscribers.add(subscriber);
  }

  remove(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
  }

  isEmpty(): boolean {
    return this.subscribers.size === 0;
  }

  /** New events may be in the log (up to `seq` when the notification says so): read them once. */
  wake(seq?: number): void {
    if (seq !== undefined && seq <= this.cursor) return;
    if (seq !== undefined) this.announced = Math.max(this.announced, seq);
    // This process's append under way will hand its events over; what they leave unread is read then.
    if (seq !== undefined && this.ownAppends > 0) return;
    this.woken = true;
    this.run();
  }

  /**
   * Events just committed by this process: delivered without a read when they follow the cursor and no read
   * runs. A notification heard meanwhile that they do not cover is read for now.
   */
  offer(events: readonly SessionEvent[]): void {
    if (this.closed) return;
    const follows = events[0]?.seq === this.cursor + 1;
    if (follows && this.reading === null && !this.hasLaggards()) {
      this.cursor = events[events.length - 1]!.seq;
      for (const subscriber of [...this.subscribers]) deliver(subscriber, events);
    }
    // A read under way sees `announced` when it ends; otherwise, once no append of ours is under way, read now.
    if (this.reading === null && this.ownAppends === 0 && this.announced > this.cursor) this.wake();
  }

  /** A subscriber joined behind the cursor: give it what the feed has already read past. */
  catchUp(): void {
    this.run();
  }

  private run(): void {
    if (this.reading) return;
    // A failed read (the database is away) waits for the next notification or the reconnection to try again.
    this.reading = this.drain().then(
      () => {
        this.reading = null;
        if (!this.closed && (this.woken || this.hasLaggards())) this.run();
      },
      () => {
        this.reading = null;
      },
    );
  }

  private hasLaggards(): boolean {
    for (const subscriber of this.subscribers) if (subscriber.lastSeq < this.cursor) return true;
    return false;
  }

  private async drain(): Promise<void> {
    while (!this.closed) {
      for (const subscriber of [...this.subscribers]) await this.catchUpOne(subscriber);
      if (!this.woken) return;
      this.woken = false;
      const { events, more } = await readEventPage(this.database, this.sessionId, {
        afterSeq: this.cursor,
        limit: READ_BATCH,
        maxBytes: READ_BYTES,
      });
      if (events.length === 0) continue;
      this.cursor = events[events.length - 1]!.seq;
      // A page that stopped at a bound, or a notification announcing more than was read: the log has more.
      if (more || this.announced > this.cursor) this.woken = true;
      for (const subscriber of [...this.subscribers]) deliver(subscriber, events);
    }
  }

  private async catchUpOne(subscriber: Subscriber): Promise<void> {
    while (!subscriber.closed && !this.closed && subscriber.lastSeq < this.cursor) {
      const { events } = await readEventPage(this.database, this.sessionId, {
        afterSeq: subscriber.lastSeq,
        limit: READ_BATCH,
        maxBytes: READ_BYTES,
      });
      const upToCursor = events.filter((event) => event.seq <= this.cursor);
      if (upToCursor.length === 0) return;
      deliver(subscriber, upToCursor);
    }
  }
}

function deliver(subscriber: Subscriber, events: readonly SessionEvent[]): void {
  if (subscriber.closed) return;
  const fresh = events.filter((event) => event.seq > subscriber.lastSeq);
  if (fresh.length === 0) return;
  subscriber.lastSeq = fresh[fresh.length - 1]!.seq;
  subscriber.listener(fresh);
}
