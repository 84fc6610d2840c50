import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderInstructionPaths } from './order-instruction-paths.ts';

const segment = fc.string({
  unit: fc.constantFrom('a', 'B', '_', 'é', '😀', '\uffef', '-'),
  minLength: 1,
  maxLength: 4,
});
const instructionPath = fc
  .array(segment, { maxLength: 5 })
  .map((segments) => [...segments, 'AGENTS.md'].join('/'));
const depth = (relativePath: string) => relativePath.split('/').length - 1;

describe('orderInstructionPaths', () => {
  it('puts the root first, then shallower before deeper, ties in byte order', () => {
    const ordered = orderInstructionPaths([
      'pkg/api/AGENTS.md',
      'b/AGENTS.md',
      'AGENTS.md',
      'B/AGENTS.md',
      'a/z/AGENTS.md',
    ]);
    expect(ordered).toEqual([
      'AGENTS.md',
      'B/AGENTS.md',
      'b/AGENTS.md',
      'a/z/AGENTS.md',
      'pkg/api/AGENTS.md',
    ]);
  });

  it('uses UTF-8 byte order, where U+FFEF sorts before an emoji (UTF-16 order says otherwise)', () => {
    expect(orderInstructionPaths(['😀/AGENTS.md', '\uffef/AGENTS.md'])).toEqual([
      '\uffef/AGENTS.md',
      '😀/AGENTS.md',
    ]);
  });

  it('orders any set of paths by depth then bytes, whatever order they arrive in', () => {
    fc.assert(
      fc.property(fc.uniqueArray(instructionPath, { maxLength: 30 }), (paths) => {
        const ordered = orderInstructionPaths(paths);
        expect(orderInstructionPaths([...paths].reverse())).toEqual(ordered);
        for (let index = 1; index < ordered.length; index++) {
          const previous = ordered[index - 1]!;
          const current = ordered[index]!;
          const byDepth = depth(previous) - depth(current);
          expect(
            byDepth < 0 ||
              (byDepth === 0 && Buffer.compare(Buffer.from(previous), Buffer.from(current)) < 0),
          ).toBe(true);
        }
      }),
    );
  });
});
