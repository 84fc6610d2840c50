import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuseRankedLists, RRF_CONSTANT } from './fuse-ranked-lists.ts';

const identity = (item: string) => item;

describe('fuseRankedLists', () => {
  it('ranks first what both lists rank high, and keeps what only one found', () => {
    const fused = fuseRankedLists(
      [
        ['a', 'b', 'c'],
        ['b', 'd'],
      ],
      identity,
      10,
    );
    expect(fused.map((entry) => entry.item)).toEqual(['b', 'a', 'd', 'c']);
    expect(fused[0]!.score).toBeCloseTo(1 / (RRF_CONSTANT + 2) + 1 / (RRF_CONSTANT + 1));
  });

  it('is one list unchanged when the other is empty', () => {
    expect(fuseRankedLists([['x', 'y', 'z'], []], identity, 2).map((entry) => entry.item)).toEqual([
      'x',
      'y',
    ]);
  });

  it('never repeats an item, never exceeds the limit, and does not depend on the order of the lists', () => {
    const list = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'));
    fc.assert(
      fc.property(list, list, fc.integer({ min: 0, max: 10 }), (left, right, limit) => {
        const fused = fuseRankedLists([left, right], identity, limit);
        const items = fused.map((entry) => entry.item);
        expect(new Set(items).size).toBe(items.length);
        expect(items.length).toBe(Math.min(limit, new Set([...left, ...right]).size));
        expect(fuseRankedLists([right, left], identity, limit).map((entry) => entry.item)).toEqual(
          items,
        );
      }),
    );
  });
});
