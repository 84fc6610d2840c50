/**
 * The database port. Forja speaks one dialect (PostgreSQL) to two engines: PGlite embedded in the process,
 * and a PostgreSQL server through `pg`. Everything above this file sees only these interfaces.
 */

/** A result row set; int8 and numeric counts arrive as JS numbers on both engines. */
export interface QueryResult<Row> {
  rows: Row[];
}

/** Something that runs SQL: the database itself, or an open transaction. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<Row>>;
  /** Runs a script of several statements without parameters (migrations). */
  execute(script: string): Promise<void>;
}

/** What a listener hears about its connection (the server engine only; PGlite's lives as long as the process). */
export interface ListenEvents {
  /** The listening connection was lost; the next attempt is in `retryInMs`. */
  lost?(error: Error, retryInMs: number): void;
  /** Listening again after a loss: notifications may have been missed since `lost`. */
  restored?(): void;
}

export type DatabaseKind = 'pglite' | 'postgres';

export interface TransactionOptions {
  /**
   * Derived work that can wait (the memory workers' drains): on PGlite's worker thread it begins only once the
   * one connection has been quiet for a moment, so a message's statements do not queue behind it (ADR 0245).
   * The other engines ignore it.
   */
  background?: boolean;
}

export interface Database extends Queryable {
  readonly kind: DatabaseKind;
  /** A human description without secrets, for logs and `GET /api/health`. */
  readonly description: string;
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws.
   * On PGlite a transaction holds the only connection: inside `work`, use `transaction` only, never the
   * database itself, or the call waits for the transaction that is waiting for it.
   */
  transaction<T>(
    work: (transaction: Queryable) => Promise<T>,
    options?: TransactionOptions,
  ): Promise<T>;
  /**
   * Whether requests other than background transactions' wait for the connection now (PGlite's worker thread
   * only): a background transaction takes no further row then (ADR 0245).
   */
  requestsWaiting?(): boolean;
  /**
   * Where derived work that can wait (the memory workers: their drains, their reads, their LISTEN) runs, so
   * that its statements never queue ahead of a message's (ADR 0427). On the server, a pool of its own
   * (`MEMORY_POOL_CONNECTIONS`, apart from `DATABASE_POOL_SIZE`); on PGlite's worker thread, the one connection
   * with every statement behind the foreground's in the worker's queue. Absent (in-process PGlite): the
   * database itself. It is closed with its database; its own `close` does nothing.
   */
  readonly background?: Database;
  /**
   * Subscribes to a NOTIFY channel. Returns the function that unsubscribes. On the server the listening
   * connection can be lost (a restart, `pg_terminate_backend`): it is opened again with backoff, and `events`
   * hears of it; notifications sent meanwhile are missed, so a listener reads the log again on `restored`.
   */
  listen(
    channel: string,
    onNotification: (payload: string) => void,
    events?: ListenEvents,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
