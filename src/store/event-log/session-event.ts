import type {
  NewSessionEvent as DomainNewSessionEvent,
  SessionEvent,
} from '../../domain/conversation/session-event.ts';

/** An event as stored in the session log: the domain's type (`seq` is 1, 2, 3 … per session, no gap). */
export type { SessionEvent };

/** An outbox row to write in the same transaction as the event it belongs to. */
export interface OutboxMessage {
  aggregateType: string;
  aggregateId: string;
  payload?: unknown;
}

/**
 * An event to append: what a decision or a constructor produced (`SESSION_EVENTS.x.create`, `handoffEvent`,
 * …), with an `id` when the caller needs it first (generated when absent) and `outbox` rows written
 * atomically with it.
 */
export type NewSessionEvent = Omit<DomainNewSessionEvent, 'payload'> & {
  readonly payload: unknown;
  readonly id?: string;
  readonly outbox?: OutboxMessage[];
};
