import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkOutputExcerpt } from './check-output-excerpt.ts';

/** node --test's TAP for one failing test among many passing ones: the failure far above the totals. */
const tap = (passing: number) =>
  [
    'TAP version 13',
    '# Subtest: soma dois números',
    'not ok 1 - soma dois números',
    '  ---',
    '  duration_ms: 1.6',
    "  location: '/w/test/soma.test.js:3:1'",
    "  failureType: 'testCodeFailure'",
    '  error: |-',
    '    Expected values to be strictly equal:',
    '    2 !== 3',
    "  code: 'ERR_ASSERTION'",
    '  ...',
    ...Array.from({ length: passing }, (_, index) => [
      `# Subtest: passa ${index}`,
      `ok ${index + 2} - passa ${index}`,
      '  ---',
      '  duration_ms: 0.1',
      '  ...',
    ]).flat(),
    '# Subtest: grupo',
    '    not ok 1 - interno falha',
    '      ---',
    "      error: 'boom interno'",
    '      ...',
    'not ok 99 - grupo',
    '  ---',
    "  failureType: 'subtestsFailed'",
    "  error: '1 subtest failed'",
    '  ...',
    '1..99',
    '# tests 99',
    '# pass 96',
    '# fail 3',
  ].join('\n');

describe("a failing check's output as the model reads it", () => {
  it('shows the failing TAP tests with their diagnostics, then the tail, though the totals are far below', () => {
    const shown = checkOutputExcerpt(tap(30));
    expect(shown).toContain('not ok 1 - soma dois números\n  ---\n  duration_ms: 1.6');
    expect(shown).toContain('    2 !== 3');
    expect(shown).toContain("    not ok 1 - interno falha\n      ---\n      error: 'boom interno'");
    expect(shown).toMatch(/\[… \d+ lines …\]/);
    expect(shown.endsWith('# pass 96\n# fail 3')).toBe(true);
    // The failure comes before the tail, where the runner's totals are.
    expect(shown.indexOf('soma dois números')).toBeLessThan(shown.indexOf('# fail 3'));
  });

  it('shows the lines around the first failure of another runner', () => {
    const pytest = [
      '============ test session starts ============',
      ...Array.from({ length: 80 }, (_, index) => `tests/test_${index}.py .`),
      '__________ test_prazo __________',
      '    def test_prazo():',
      '>       assert prazo() == 20',
      'E       assert 18 == 20',
      ...Array.from({ length: 60 }, (_, index) => `log line ${index}`),
      '1 failed, 80 passed in 0.5s',
    ].join('\n');
    const shown = checkOutputExcerpt(pytest);
    expect(shown).toContain(
      '__________ test_prazo __________\n    def test_prazo():\n>       assert prazo() == 20\nE       assert 18 == 20',
    );
    expect(shown.endsWith('1 failed, 80 passed in 0.5s')).toBe(true);
  });

  it('is the output itself when it is short', () => {
    expect(checkOutputExcerpt('one\ntwo\n')).toBe('one\ntwo');
  });

  it('shows only lines of the output, in order, always its tail, and never more than the limits', () => {
    const line = fc.oneof(
      fc.constantFrom('not ok 1 - x', '  ---', '  error: y', 'ok 2 - z', '✖ w', 'FAIL a', ''),
      fc.string({ maxLength: 20 }).map((text) => text.replace(/\n/g, ' ')),
    );
    const limits = fc.record({
      tailLines: fc.integer({ min: 1, max: 10 }),
      failureLines: fc.integer({ min: 0, max: 10 }),
      blockLines: fc.integer({ min: 1, max: 5 }),
    });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 80 }), limits, (lines, limit) => {
        const input = lines.join('\n').trimEnd().split('\n');
        const shown = checkOutputExcerpt(lines.join('\n'), limit).split('\n');
        const real = shown.filter((text) => !/^\[… \d+ lines …\]$/.test(text));
        expect(real.length).toBeLessThanOrEqual(limit.tailLines + limit.failureLines);
        let at = 0;
        for (const text of real) {
          while (at < input.length && input[at] !== text) at += 1;
          expect(at).toBeLessThan(input.length);
          at += 1;
        }
        expect(real.slice(-Math.min(limit.tailLines, input.length))).toEqual(
          input.slice(-Math.min(limit.tailLines, input.length)),
        );
      }),
    );
  });
});
