import { setTimeout as delay } from 'node:timers/promises';
import { ProviderCancelledError } from '../errors/provider-cancelled-error.ts';

/** Waits `ms`; given the signal so a real sleep can stop early. Injected in tests. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** The real sleep: a timer that the signal cancels. */
export const realSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, { signal }).catch(() => undefined);
};

/**
 * Sleeps between attempts but gives way to the caller's abort at once, even when the injected sleep
 * ignores the signal, and reports the abort as ProviderCancelledError.
 */
export async function sleepUnlessCancelled(fields: {
  ms: number;
  signal: AbortSignal;
  sleep: Sleep;
  provider: string;
}): Promise<void> {
  const { signal, provider } = fields;
  if (signal.aborted) throw new ProviderCancelledError(provider);
  let onAbort = (): void => undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([fields.sleep(fields.ms, signal), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  if (signal.aborted) throw new ProviderCancelledError(provider);
}
