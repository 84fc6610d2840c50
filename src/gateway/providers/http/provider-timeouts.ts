import { ProviderTimeoutError, type TimeoutPhase } from '../errors/provider-timeout-error.ts';

/** How long a provider may stay silent before the call fails with ProviderTimeoutError. */
export type ProviderTimeouts = {
  /** From sending the request to the first byte of the answer's body (covers connecting). */
  firstByteTimeoutMs: number;
  /** Between two chunks of the body once it has started. */
  idleTimeoutMs: number;
};

/**
 * Generous on purpose: a local model may load for a minute before its first token, and reasoning
 * models can think silently for long. Callers with tighter needs pass their own.
 */
export const defaultProviderTimeouts: ProviderTimeouts = {
  firstByteTimeoutMs: 120_000,
  idleTimeoutMs: 120_000,
};

/** Runs `callback` after `ms` and returns what cancels it; tests inject a manual one. */
export type TimeoutScheduler = (callback: () => void, ms: number) => () => void;

/** The real scheduler, on Node's timers. */
export const realTimeoutScheduler: TimeoutScheduler = (callback, ms) => {
  const timer = setTimeout(callback, ms);
  return () => clearTimeout(timer);
};

/**
 * A timer that is armed only while we wait on the provider, so time the consumer spends handling a
 * part never counts as provider silence. When it fires it records the error and calls `onTimeout`.
 */
export class SilenceWatchdog {
  #cancel: (() => void) | undefined;
  #fired: ProviderTimeoutError | undefined;
  readonly #provider: string;
  readonly #timeouts: ProviderTimeouts;
  readonly #onTimeout: () => void;
  readonly #schedule: TimeoutScheduler;

  constructor(fields: {
    provider: string;
    timeouts: ProviderTimeouts;
    onTimeout: () => void;
    schedule: TimeoutScheduler;
  }) {
    this.#provider = fields.provider;
    this.#timeouts = fields.timeouts;
    this.#onTimeout = fields.onTimeout;
    this.#schedule = fields.schedule;
  }

  /** The timeout that fired, if any. */
  get fired(): ProviderTimeoutError | undefined {
    return this.#fired;
  }

  arm(phase: TimeoutPhase): void {
    this.disarm();
    const timeoutMs =
      phase === 'first-byte' ? this.#timeouts.firstByteTimeoutMs : this.#timeouts.idleTimeoutMs;
    this.#cancel = this.#schedule(() => {
      this.#fired = new ProviderTimeoutError({ provider: this.#provider, phase, timeoutMs });
      this.#onTimeout();
    }, timeoutMs);
  }

  disarm(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }
}
