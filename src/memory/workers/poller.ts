/** What one cycle of a background worker reports: `more` asks for the next cycle at once (a full batch). */
export interface CycleReport {
  readonly more: boolean;
}

export interface PollerOptions {
  /** Pause between cycles when there was nothing more to do. */
  readonly intervalMs: number;
  readonly runCycle: () => Promise<CycleReport>;
  /** A cycle that threw; the poller goes on with the next one after the interval. */
  readonly onError: (error: unknown) => void;
}

export interface Poller {
  start(): void;
  /**
   * Runs a cycle now instead of at the end of the pause (new work was committed: a NOTIFY). A wake during a
   * cycle runs one more cycle right after it; wakes while stopped do nothing.
   */
  wake(): void;
  /** Stops scheduling and resolves when the cycle in flight, if any, has finished. */
  stop(): Promise<void>;
  readonly running: boolean;
}

/**
 * Runs a cycle every `intervalMs` (at once again after a full batch, or when woken), one cycle at a time.
 * The interval is the fallback for a missed wake; the timer is unref'd: a poller alone never keeps the
 * process alive.
 */
export function createPoller(options: PollerOptions): Poller {
  let running = false;
  /** The next cycle, scheduled: how to cancel it. */
  let timer: { cancel(): void } | null = null;
  const cancel = () => {
    timer?.cancel();
    timer = null;
  };
  let inFlight: Promise<void> | null = null;
  let wokenDuringCycle = false;

  const schedule = (delayMs: number) => {
    if (!running) return;
    const run = () => {
      timer = null;
      inFlight = cycle();
    };
    // At once is the next turn of the loop, not a timer's 1 ms at least: a wake is on the projection's lag (ADR 0427).
    if (delayMs === 0) {
      const immediate = setImmediate(run).unref();
      timer = { cancel: () => clearImmediate(immediate) };
    } else {
      const timeout = setTimeout(run, delayMs).unref();
      timer = { cancel: () => clearTimeout(timeout) };
    }
  };

  async function cycle(): Promise<void> {
    wokenDuringCycle = false;
    let more = false;
    try {
      more = (await options.runCycle()).more;
    } catch (error) {
      options.onError(error);
    }
    inFlight = null;
    // A macrotask between cycles (setImmediate), so a stream of batches never starves the event loop.
    schedule(more || wokenDuringCycle ? 0 : options.intervalMs);
  }

  return {
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },
    wake() {
      if (!running) return;
      if (inFlight !== null) {
        wokenDuringCycle = true;
        return;
      }
      cancel();
      schedule(0);
    },
    async stop() {
      running = false;
      cancel();
      await inFlight;
    },
    get running() {
      return running;
    },
  };
}
