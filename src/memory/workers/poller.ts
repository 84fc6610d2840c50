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
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> | null = null;
  let wokenDuringCycle = false;

  const schedule = (delayMs: number) => {
    if (!running) return;
    timer = setTimeout(() => {
      timer = null;
      inFlight = cycle();
    }, delayMs);
    timer.unref();
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
    // A macrotask between cycles (setTimeout 0), so a stream of batches never starves the event loop.
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
      if (timer !== null) clearTimeout(timer);
      timer = null;
      schedule(0);
    },
    async stop() {
      running = false;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await inFlight;
    },
    get running() {
      return running;
    },
  };
}
