import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currentVersion } from './current-version.ts';

const declaration = (seq: number, version: number, label = `${seq}`) => ({
  seq,
  payload: { version, label },
});

describe('currentVersion', () => {
  it.each([
    { name: 'no declaration', declarations: [], current: null },
    { name: 'a single declaration', declarations: [declaration(4, 1)], current: '4' },
    {
      name: 'the highest version',
      declarations: [declaration(1, 1), declaration(2, 3), declaration(3, 2)],
      current: '2',
    },
    {
      name: 'a tie on version: the later seq',
      declarations: [declaration(7, 2), declaration(9, 2), declaration(8, 2)],
      current: '9',
    },
    {
      name: 'a lower version recorded later does not win',
      declarations: [declaration(1, 5), declaration(2, 4)],
      current: '1',
    },
  ])('resolves $name', ({ declarations, current }) => {
    expect(currentVersion(declarations)?.payload.label ?? null).toBe(current);
  });

  it('returns the winning declaration whole — it replaces, never merges', () => {
    const first = { seq: 1, payload: { version: 1, contratos: ['a', 'b'] } };
    const second = { seq: 2, payload: { version: 2, contratos: ['c'] } };
    expect(currentVersion([first, second])).toBe(second);
  });

  const declarationsArbitrary = fc
    .uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 30 })
    .chain((seqs) =>
      fc.tuple(
        ...seqs.map((seq) =>
          fc.integer({ min: 1, max: 5 }).map((version) => declaration(seq, version)),
        ),
      ),
    );

  it('picks the highest version and, among those, the highest seq', () => {
    fc.assert(
      fc.property(declarationsArbitrary, (declarations) => {
        const current = currentVersion(declarations);
        const highest = Math.max(...declarations.map((entry) => entry.payload.version));
        const latestOfHighest = Math.max(
          ...declarations
            .filter((entry) => entry.payload.version === highest)
            .map((entry) => entry.seq),
        );
        expect(current?.payload.version).toBe(highest);
        expect(current?.seq).toBe(latestOfHighest);
        expect(declarations).toContain(current);
      }),
    );
  });

  it('does not depend on the order declarations are read in', () => {
    fc.assert(
      fc.property(
        declarationsArbitrary.chain((declarations) =>
          fc.tuple(
            fc.constant(declarations),
            fc.shuffledSubarray(declarations, {
              minLength: declarations.length,
              maxLength: declarations.length,
            }),
          ),
        ),
        ([declarations, shuffled]) => {
          expect(currentVersion(shuffled)).toBe(currentVersion(declarations));
        },
      ),
    );
  });
});
