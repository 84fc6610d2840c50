import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { largestFitting } from './largest-fitting.ts';

describe('largestFitting', () => {
  it('finds the threshold of any monotone predicate', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(12_000), (limit, threshold) => {
        expect(largestFitting(limit, (candidate) => candidate <= threshold)).toBe(
          Math.min(limit, threshold),
        );
      }),
    );
  });

  it('finds the same threshold from any hint', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(12_000), fc.nat(12_000), (limit, threshold, hint) => {
        expect(largestFitting(limit, (candidate) => candidate <= threshold, hint)).toBe(
          Math.min(limit, threshold),
        );
      }),
    );
  });

  it('needs few probes when the hint is close', () => {
    let probes = 0;
    const found = largestFitting(1_000_000, (candidate) => (probes++, candidate <= 20_000), 20_050);
    expect(found).toBe(20_000);
    expect(probes).toBeLessThanOrEqual(12);
  });

  it('probes only candidates near the answer, not near the limit', () => {
    const probed: number[] = [];
    largestFitting(1_000_000, (candidate) => {
      probed.push(candidate);
      return candidate <= 100;
    });
    expect(Math.max(...probed)).toBeLessThanOrEqual(256);
  });

  it('returns a value the predicate accepted even when it is not monotone', () => {
    fc.assert(
      fc.property(fc.nat(300), fc.nat(300), fc.func(fc.boolean()), (limit, hint, predicate) => {
        const fits = (candidate: number) => candidate === 0 || predicate(candidate);
        expect(fits(largestFitting(limit, fits, hint))).toBe(true);
      }),
    );
  });
});
