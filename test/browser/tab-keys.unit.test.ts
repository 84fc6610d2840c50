import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tabAfterKey } from '../../web/src/components/tab-keys.ts';

describe('the tab list keys (WAI-ARIA tabs pattern)', () => {
  it('moves right and left with wrap-around, Home to the first, End to the last', () => {
    expect(tabAfterKey('ArrowRight', 0, 5)).toBe(1);
    expect(tabAfterKey('ArrowRight', 4, 5)).toBe(0);
    expect(tabAfterKey('ArrowLeft', 0, 5)).toBe(4);
    expect(tabAfterKey('ArrowLeft', 3, 5)).toBe(2);
    expect(tabAfterKey('Home', 3, 5)).toBe(0);
    expect(tabAfterKey('End', 1, 5)).toBe(4);
  });

  it('leaves every other key, and an empty list, alone', () => {
    expect(tabAfterKey('Enter', 1, 5)).toBeNull();
    expect(tabAfterKey('ArrowDown', 1, 5)).toBeNull();
    expect(tabAfterKey('ArrowRight', 0, 0)).toBeNull();
  });

  it('always lands on a tab, and Right then Left comes back', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 20 })
          .chain((count) => fc.tuple(fc.constant(count), fc.integer({ min: 0, max: count - 1 }))),
        fc.constantFrom('ArrowRight', 'ArrowLeft', 'Home', 'End'),
        ([count, current], key) => {
          const next = tabAfterKey(key, current, count);
          expect(next).not.toBeNull();
          expect(next).toBeGreaterThanOrEqual(0);
          expect(next).toBeLessThan(count);
          const right = tabAfterKey('ArrowRight', current, count) ?? -1;
          expect(tabAfterKey('ArrowLeft', right, count)).toBe(current);
        },
      ),
    );
  });
});
