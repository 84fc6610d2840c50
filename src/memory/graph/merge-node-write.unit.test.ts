import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBytewise, mergeNodeWrite, type StoredNodeState } from './merge-node-write.ts';

const revision = fc.string({ maxLength: 4 });
const properties = fc.dictionary(
  fc.constantFrom('status', 'level', 'summary'),
  fc.integer({ min: 0, max: 9 }),
);

describe('mergeNodeWrite', () => {
  it('applying the same write twice changes nothing the second time', () => {
    fc.assert(
      fc.property(
        fc.option(fc.record({ properties, revision })),
        properties,
        fc.option(revision, { nil: undefined }),
        (stored, written, rev) => {
          const write =
            rev === undefined ? { properties: written } : { properties: written, revision: rev };
          const once = mergeNodeWrite(stored, write);
          expect(mergeNodeWrite(once, write)).toEqual(once);
        },
      ),
    );
  });

  it('writes that all name the same properties end in the same node whatever their order', () => {
    const write = fc.record({
      properties: fc.record({ status: fc.integer(), level: fc.integer() }),
      revision,
    });
    fc.assert(
      fc.property(
        fc.array(write, { minLength: 1, maxLength: 6 }),
        fc.func(fc.integer()),
        (writes, shuffleKey) => {
          const apply = (list: typeof writes) =>
            list.reduce<StoredNodeState | null>((node, next) => mergeNodeWrite(node, next), null);
          const shuffled = [...writes].sort((left, right) => shuffleKey(left) - shuffleKey(right));
          const newest = [...writes]
            .sort((left, right) => compareBytewise(left.revision, right.revision))
            .at(-1)!;
          expect(apply(shuffled)?.revision).toBe(newest.revision);
          // Equal revisions may carry different values; only the newest revision's value is fixed.
          if (writes.filter((candidate) => candidate.revision === newest.revision).length === 1)
            expect(apply(shuffled)).toEqual(apply(writes));
        },
      ),
    );
  });

  it('lets an older write fill in what is missing without overwriting', () => {
    expect(
      mergeNodeWrite(
        { properties: { status: 'accepted' }, revision: '9' },
        { properties: { status: 'proposed', statement: 's' }, revision: '3' },
      ),
    ).toEqual({
      properties: { status: 'accepted', statement: 's' },
      revision: '9',
    });
  });
});
