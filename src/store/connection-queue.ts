import { performance } from 'node:perf_hooks';
import { BACKGROUND_MAX_WAIT_MS } from './foreground-statements.ts';

/**
 * PGlite's one connection, handed to one holder at a time, foreground first (ADR 0427): a statement outside a
 * transaction holds it until it is answered, a transaction until it ends. A memory worker's statement or
 * transaction (`background`) waits while a foreground one is queued, unless it has waited
 * BACKGROUND_MAX_WAIT_MS already — a database busy with messages still drains. A transaction already open is
 * never interrupted: its own statements do not pass through this queue.
 */
export interface ConnectionQueue {
  /**
   * Queues `hold`: called once the connection is this holder's; it resolves once the holder no longer needs
   * the connection (its failures are its caller's to report: here they only free the connection).
   */
  submit(background: boolean, hold: () => Promise<unknown>): void;
  /** Holders waiting, by priority (tests, benchmarks). */
  waiting(): { foreground: number; background: number };
}

interface Waiting {
  hold: () => Promise<unknown>;
  since: number;
}

export function connectionQueue(now: () => number = () => performance.now()): ConnectionQueue {
  const foreground: Waiting[] = [];
  const background: Waiting[] = [];
  let held = false;
  const next = (): Waiting | undefined => {
    const oldest = background[0];
    if (oldest !== undefined && now() - oldest.since >= BACKGROUND_MAX_WAIT_MS)
      return background.shift();
    return foreground.shift() ?? background.shift();
  };
  const pump = () => {
    if (held) return;
    const holder = next();
    if (holder === undefined) return;
    held = true;
    let holding: Promise<unknown>;
    try {
      holding = holder.hold();
    } catch (error) {
      holding = Promise.reject(error);
    }
    holding
      .catch(() => undefined)
      .then(() => {
        held = false;
        pump();
      });
  };
  return {
    submit(isBackground, hold) {
      (isBackground ? background : foreground).push({ hold, since: now() });
      pump();
    },
    waiting: () => ({ foreground: foreground.length, background: background.length }),
  };
}
