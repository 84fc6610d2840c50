import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeRetryDelay } from './compute-retry-delay.ts';

const settings = {
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  random: () => 0.5,
};

describe('computeRetryDelay', () => {
  it('returns retry-after as is within the limit and gives up beyond it', () => {
    expect(computeRetryDelay({ attempt: 1, retryAfterMs: 0, settings })).toBe(0);
    expect(computeRetryDelay({ attempt: 3, retryAfterMs: 60_000, settings })).toBe(60_000);
    expect(computeRetryDelay({ attempt: 1, retryAfterMs: 60_001, settings })).toBeUndefined();
  });

  it('stays between half and all of the capped exponential backoff', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (attempt, random) => {
          const backoff = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (attempt - 1));
          const delay = computeRetryDelay({
            attempt,
            retryAfterMs: undefined,
            settings: { ...settings, random: () => random },
          });
          expect(delay).toBeGreaterThanOrEqual(Math.floor(backoff / 2));
          expect(delay).toBeLessThanOrEqual(backoff);
        },
      ),
    );
  });
});
