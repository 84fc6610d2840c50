/** The knobs of the backoff; all in milliseconds. */
export type BackoffSettings = {
  baseDelayMs: number;
  maxDelayMs: number;
  /** A provider's `retry-after` longer than this is not waited out: the call fails at once. */
  maxRetryAfterMs: number;
  random: () => number;
};

/**
 * How long to wait before attempt `attempt + 1`, or undefined to give up now. A provider's own
 * `retry-after` is honoured exactly; otherwise exponential backoff with "equal jitter": half the
 * backoff is fixed (so we always wait) and half random (so concurrent turns do not retry in step).
 */
export function computeRetryDelay(fields: {
  attempt: number;
  retryAfterMs: number | undefined;
  settings: BackoffSettings;
}): number | undefined {
  const { attempt, retryAfterMs, settings } = fields;
  if (retryAfterMs !== undefined)
    return retryAfterMs <= settings.maxRetryAfterMs ? retryAfterMs : undefined;
  const backoff = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(backoff / 2 + (backoff / 2) * settings.random());
}
