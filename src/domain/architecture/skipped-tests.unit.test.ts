import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { skippedTests } from './skipped-tests.ts';

describe('skippedTests', () => {
  it("reads each runner's summary of skipped tests, the last one printed", () => {
    expect(skippedTests('1..2\n# tests 2\n# pass 1\n# fail 0\n# skipped 1\n# todo 0\n')).toBe(1);
    expect(skippedTests('ℹ tests 5\nℹ pass 2\nℹ skipped 3\n')).toBe(3);
    expect(skippedTests('===== 4 passed, 2 skipped in 0.12s =====')).toBe(2);
    expect(skippedTests('Tests  3 passed | 5 skipped (8)')).toBe(5);
    expect(skippedTests('test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured')).toBe(1);
    expect(skippedTests('# skipped 1\n…\n# skipped 4\n')).toBe(4);
  });

  it('is null when the output reports no skipped test', () => {
    expect(skippedTests('# tests 2\n# pass 2\n# skipped 0\n')).toBeNull();
    expect(skippedTests('ok\n')).toBeNull();
    expect(skippedTests('')).toBeNull();
  });

  it('is null or a whole number for any output (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (output) => {
        const skipped = skippedTests(output);
        expect(skipped === null || (Number.isSafeInteger(skipped) && skipped > 0)).toBe(true);
      }),
    );
  });
});
