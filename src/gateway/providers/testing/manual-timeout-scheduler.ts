import type { TimeoutScheduler } from '../http/provider-timeouts.ts';

type PendingTimeout = { callback: () => void; ms: number };

/** A TimeoutScheduler that never fires on its own: the test fires a timeout when it chooses. */
export type ManualTimeoutScheduler = {
  schedule: TimeoutScheduler;
  /** Waits until a timeout of `ms` is pending, then fires it. */
  fire(ms: number): Promise<void>;
};

/**
 * Lets timeout tests run without racing real timers: give the adapter distinct durations per phase
 * (e.g. first byte 1000, idle 2000) and fire the one the test is about, at the moment it is about.
 */
export function createManualTimeoutScheduler(): ManualTimeoutScheduler {
  const pending = new Set<PendingTimeout>();
  const wakeWaiters: Array<() => void> = [];
  return {
    schedule(callback, ms) {
      const timeout = { callback, ms };
      pending.add(timeout);
      for (const wake of wakeWaiters.splice(0)) wake();
      return () => void pending.delete(timeout);
    },
    async fire(ms) {
      let timeout = [...pending].find((candidate) => candidate.ms === ms);
      while (timeout === undefined) {
        await new Promise<void>((resolve) => wakeWaiters.push(resolve));
        timeout = [...pending].find((candidate) => candidate.ms === ms);
      }
      pending.delete(timeout);
      timeout.callback();
    },
  };
}
