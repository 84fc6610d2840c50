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
  /** Stops scheduling and resolves when the cycle in flight, if any, has finished. */
  stop(): Promise<void>;
  readonly running: boolean;
}

/**
 * Runs a cycle every `intervalMs` (at once again after a full batch), one cycle at a time. The timer is
 * unref'd: a poller alone never keeps the process alive.
 */
export function createPoller(options: PollerOptions): Poller {
  let running = false;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> | null = null;

  const schedule = (delayMs: number) => {
    if (!running) return;
    timer = setTimeout(() => {
      timer = null;
      inFlight = cycle();
    }, delayMs);
    timer.unref();
  };

  async function cycle(): Promise<void> {
    let more = false;
    try {
      more = (await options.runCycle()).more;
    } catch (error) {
      options.onError(error);
    }
    inFlight = null;
    schedule(more ? 0 : options.intervalMs);
  }

  return {
    start() {
      if (running) return;
      running = true;
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
