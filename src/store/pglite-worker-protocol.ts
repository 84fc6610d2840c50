/** The messages between `openPgliteWorkerDatabase` and its worker thread (`pglite-worker.ts`). */

export interface PgliteWorkerData {
  dataDirectory?: string;
  /** A dumped data directory to start from (tests' migrated template). */
  loadDataDir?: ArrayBuffer;
  sharedBuffers?: string;
}

/**
 * A request the worker may hold back while foreground ones wait (ADR 0427): a memory worker's statement
 * outside a transaction, or the begin of its transaction. Inside an open transaction nothing is held back.
 */
export interface Priority {
  background?: true;
}

export type PgliteRequest = { id: number } & (
  | ({ op: 'query'; sql: string; params?: unknown[]; tx?: number } & Priority)
  | ({ op: 'exec'; script: string; tx?: number } & Priority)
  | ({ op: 'begin'; tx: number } & Priority)
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'listen'; subscription: number; channel: string }
  | { op: 'unlisten'; subscription: number }
  | { op: 'dump' }
  | { op: 'close' }
);

/** An error as it crosses the thread: its SQLSTATE `code`, `constraint`, `detail`… are kept as fields. */
export interface SerializedError {
  name: string;
  message: string;
  fields: Record<string, string | number | boolean>;
}

export type PgliteReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: SerializedError }
  | { notify: number; payload: string }
  | { ready: true }
  | { ready: false; error: SerializedError };
