import { performance } from 'node:perf_hooks';

/**
 * A background transaction (a memory drain) begins once no other statement of this process has been in flight
 * for this long: a message's statements come a few tenths of a millisecond apart, and a drain begun among them
 * delays the message — on PGlite it holds the one connection (ADR 0245); on the server its statements and rows
 * share this process's event loop and the host's cores (ADR 0245, its addendum).
 */
export const BACKGROUND_QUIET_MS = 3;
/** …but never waits longer than this for the quiet: a busy database still drains. */
export const BACKGROUND_MAX_WAIT_MS = 50;

/** The statements in flight that are not a background transaction's, and when the last one was answered. */
export interface ForegroundStatements {
  /** Counts `statement` as in flight until it settles. */
  track<T>(statement: Promise<T>): Promise<T>;
  inFlight(): number;
  /** Resolves once no foreground statement has been in flight for BACKGROUND_QUIET_MS (at most the cap). */
  quiet(): Promise<void>;
}

export function foregroundStatements(): ForegroundStatements {
  let inFlight = 0;
  let answeredAt = 0;
  return {
    track(statement) {
      inFlight += 1;
      return statement.finally(() => {
        inFlight -= 1;
        answeredAt = performance.now();
      });
    },
    inFlight: () => inFlight,
    async quiet() {
      // Statements asked for in the same tick as the transaction are in flight before it looks.
      await new Promise((resolve) => setImmediate(resolve));
      const deadline = performance.now() + BACKGROUND_MAX_WAIT_MS;
      for (;;) {
        const now = performance.now();
        const wait = inFlight > 0 ? BACKGROUND_QUIET_MS : answeredAt + BACKGROUND_QUIET_MS - now;
        if (wait <= 0 || now >= deadline) return;
        await new Promise((resolve) => setTimeout(resolve, Math.min(wait, deadline - now)));
      }
    },
  };
}
