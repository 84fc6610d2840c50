import type { Queryable } from '../database.ts';
import { SESSION_EVENTS_CHANNEL } from './event-notifications.ts';

/** After a failed send, the next try is this far away, doubling; after the last try the notifications are dropped. */
const RETRY_FIRST_MS = 100;
const RETRIES = 6;

/** Sends the notifications of committed appends. */
export interface CommitNotifier {
  /** Session `sessionId` has committed events up to `lastSeq`: tell the listeners, soon, without waiting. */
  announce(sessionId: string, lastSeq: number): void;
  /** Resolves when everything announced so far has been sent (or given up). */
  flushed(): Promise<void>;
}

/**
 * The NOTIFY of appends that committed without one (ADR 0180). PostgreSQL serialises the commits of
 * transactions that notify, flush and all; a statement that only notifies writes no WAL, so it holds that lock
 * for an instant. One statement is in flight at a time: the appends that commit meanwhile are announced
 * together by the next one, each session once with its highest seq — the payload listeners already read,
 * `<session_id>:<last_seq>`. A failed send (the server is away) is tried again a few times; listeners of this
 * process read the log again anyway when their connection comes back.
 */
export function createCommitNotifier(database: Queryable): CommitNotifier {
  let pending = new Map<string, number>();
  let sending: Promise<void> | null = null;
  let failures = 0;

  const send = async (): Promise<void> => {
    while (pending.size > 0) {
      const batch = pending;
      pending = new Map();
      try {
        await database.query('select pg_notify($1, payload) from unnest($2::text[]) as payload', [
          SESSION_EVENTS_CHANNEL,
          [...batch].map(([sessionId, seq]) => `${sessionId}:${seq}`),
        ]);
        failures = 0;
      } catch {
        for (const [sessionId, seq] of batch)
          pending.set(sessionId, Math.max(seq, pending.get(sessionId) ?? 0));
        failures += 1;
        if (failures > RETRIES) {
          pending.clear();
          failures = 0;
          return;
        }
        await new Promise<void>((resolve) =>
          setTimeout(resolve, RETRY_FIRST_MS * 2 ** (failures - 1)).unref(),
        );
      }
    }
  };

  const kick = () => {
    if (sending || pending.size === 0) return;
    sending = send().finally(() => {
      sending = null;
      kick();
    });
  };

  return {
    announce(sessionId, lastSeq) {
      pending.set(sessionId, Math.max(lastSeq, pending.get(sessionId) ?? 0));
      kick();
    },
    async flushed() {
      while (sending) await sending;
    },
  };
}
