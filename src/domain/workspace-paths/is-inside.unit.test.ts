import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInside } from './is-inside.ts';

describe('isInside', () => {
  it.each([
    { root: '/w/tree', candidate: '/w/tree', inside: true },
    { root: '/w/tree', candidate: '/w/tree/src/a.ts', inside: true },
    { root: '/w/tree/', candidate: '/w/tree/src', inside: true },
    { root: '/w/tree', candidate: '/w/tree-2/src', inside: false },
    { root: '/w/tree', candidate: '/w', inside: false },
    { root: '/w/tree', candidate: '/w/tree/../other', inside: false },
    { root: '/w/tree', candidate: '/etc/passwd', inside: false },
    { root: '/w/tree', candidate: 'w/tree/a', inside: false },
    { root: 'w/tree', candidate: 'w/tree/a', inside: false },
    { root: '/w/tree', candidate: '/w/tree/a\0', inside: false },
    { root: '/', candidate: '/anything', inside: true },
  ])('$candidate inside $root: $inside', ({ root, candidate, inside }) => {
    expect(isInside(root, candidate)).toBe(inside);
  });

  it('is true for the root joined with any plain names, false for a sibling sharing its prefix', () => {
    const name = fc
      .stringMatching(/^[a-z0-9._-]{1,8}$/)
      .filter((part) => part !== '.' && part !== '..');
    fc.assert(
      fc.property(
        fc.array(name, { minLength: 1, maxLength: 4 }),
        fc.array(name, { maxLength: 4 }),
        name,
        (rootParts, below, suffix) => {
          const root = `/${rootParts.join('/')}`;
          expect(isInside(root, [root, ...below].join('/'))).toBe(true);
          expect(isInside(root, `${root}${suffix}`)).toBe(false);
        },
      ),
    );
  });
});
