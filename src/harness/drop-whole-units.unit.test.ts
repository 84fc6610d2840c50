import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dropWholeUnits } from './drop-whole-units.ts';
import { estimateTokenizer } from './estimate-tokenizer.ts';
import { UNIT_SEPARATOR, unitHeader } from './prompt-layout.ts';
import { wordTokenizer } from './test-tokenizers.ts';

const header = '## regras_negocio\n';
const render = (units: readonly { id: string; text: string }[]) =>
  units.length === 0
    ? ''
    : header + units.map((unit) => unitHeader(unit.id) + unit.text).join(UNIT_SEPARATOR);
const unitLists = fc.uniqueArray(
  fc.record({
    id: fc.string({ minLength: 1, maxLength: 8 }),
    text: fc.string({ unit: 'binary', maxLength: 120 }),
  }),
  { selector: (unit) => unit.id, maxLength: 12 },
);

describe('dropWholeUnits', () => {
  it('keeps every unit when all fit', () => {
    const units = [
      { id: 'r1', text: 'um' },
      { id: 'r2', text: 'dois' },
    ];
    const outcome = dropWholeUnits(header, units, 100, estimateTokenizer);
    expect(outcome.status).toBe('kept');
    expect(outcome.content).toBe('## regras_negocio\n### r1\num\n\n### r2\ndois');
    expect(outcome.units).toEqual([
      { id: 'r1', tokens: 3, kept: true },
      { id: 'r2', tokens: 3, kept: true },
    ]);
  });

  it('drops from the head, oldest first, until the rest fits', () => {
    const units = [
      { id: 'old', text: 'x'.repeat(40) },
      { id: 'new', text: 'y'.repeat(40) },
    ];
    const outcome = dropWholeUnits(header, units, 20, estimateTokenizer);
    expect(outcome.status).toBe('truncated');
    expect(outcome.units?.map((unit) => unit.kept)).toEqual([false, true]);
    expect(outcome.content).toBe(`${header}### new\n${'y'.repeat(40)}`);
  });

  it('drops a unit larger than the budget whole, with every unit before it', () => {
    const units = [
      { id: 'a', text: 'a' },
      { id: 'big', text: 'b'.repeat(400) },
      { id: 'c', text: 'c' },
    ];
    const outcome = dropWholeUnits(header, units, 30, estimateTokenizer);
    expect(outcome.units?.map((unit) => unit.kept)).toEqual([false, false, true]);
    const alone = dropWholeUnits(
      header,
      [{ id: 'big', text: 'b'.repeat(400) }],
      30,
      estimateTokenizer,
    );
    expect(alone).toMatchObject({ status: 'dropped', content: '', tokens: 0 });
  });

  it('keeps the longest tail that fits, never splitting a unit and never exceeding the budget', () => {
    fc.assert(
      fc.property(unitLists, fc.nat(300), (units, budget) => {
        const outcome = dropWholeUnits(header, units, budget, estimateTokenizer);
        const keptCount = outcome.units?.filter((unit) => unit.kept).length ?? 0;
        const firstKept = units.length - keptCount;
        expect(outcome.units?.map((unit) => unit.kept)).toEqual(
          units.map((_, index) => index >= firstKept),
        );
        expect(outcome.content).toBe(render(units.slice(firstKept)));
        expect(outcome.tokens).toBeLessThanOrEqual(budget);
        expect(outcome.tokens).toBe(estimateTokenizer.count(outcome.content).tokens);
        if (firstKept > 0) {
          expect(
            estimateTokenizer.count(render(units.slice(firstKept - 1))).tokens,
          ).toBeGreaterThan(budget);
        }
      }),
    );
  });

  it('holds the budget with a tokenizer that is not additive', () => {
    const words = fc.string({ unit: fc.constantFrom('a', ' ', '\n'), maxLength: 40 });
    const lists = fc.uniqueArray(
      fc.record({ id: fc.constantFrom('1', '2', '3', '4', '5'), text: words }),
      {
        selector: (unit) => unit.id,
      },
    );
    fc.assert(
      fc.property(lists, fc.nat(30), (units, budget) => {
        const outcome = dropWholeUnits(header, units, budget, wordTokenizer);
        expect(outcome.tokens).toBeLessThanOrEqual(budget);
        expect(outcome.tokens).toBe(wordTokenizer.count(outcome.content).tokens);
      }),
    );
  });
});

describe('dropWholeUnits with truncateBoundary (the instruction layer)', () => {
  const instructions = '## instruction_files\n';

  it('keeps the head of the last file that does not fit, marked, and drops the ones before it whole', () => {
    const units = [
      { id: 'AGENTS.md', text: 'r'.repeat(400) },
      { id: 'a/AGENTS.md', text: 'a'.repeat(400) },
      { id: 'a/b/AGENTS.md', text: 'b'.repeat(40) },
    ];
    const outcome = dropWholeUnits(instructions, units, 60, estimateTokenizer, {
      truncateBoundary: true,
    });
    expect(outcome.units).toEqual([
      { id: 'AGENTS.md', tokens: 104, kept: false },
      { id: 'a/AGENTS.md', tokens: 104, kept: true, truncated: true },
      { id: 'a/b/AGENTS.md', tokens: 15, kept: true },
    ]);
    expect(outcome.content).toMatch(
      /^## instruction_files\n### a\/AGENTS\.md\na+\n\[… truncado …\]\n\n### a\/b\/AGENTS\.md\nb{40}$/,
    );
    expect(outcome).toMatchObject({ status: 'truncated', tokens: 60 });
  });

  it('keeps the root in part when it alone does not fit', () => {
    const outcome = dropWholeUnits(
      instructions,
      [{ id: 'AGENTS.md', text: 'é'.repeat(1000) }],
      50,
      estimateTokenizer,
      { truncateBoundary: true },
    );
    expect(outcome.status).toBe('truncated');
    expect(outcome.units).toEqual([{ id: 'AGENTS.md', tokens: 504, kept: true, truncated: true }]);
    expect(outcome.content.endsWith('[… truncado …]')).toBe(true);
  });

  it('stays within budget, counts exactly what it keeps, and never splits without the option', () => {
    fc.assert(
      fc.property(unitLists, fc.nat(300), (units, budget) => {
        const cut = dropWholeUnits(instructions, units, budget, estimateTokenizer, {
          truncateBoundary: true,
        });
        expect(cut.tokens).toBeLessThanOrEqual(budget);
        expect(cut.tokens).toBe(estimateTokenizer.count(cut.content).tokens);
        expect(cut.units?.filter((unit) => unit.truncated).length).toBeLessThanOrEqual(1);
        const whole = dropWholeUnits(instructions, units, budget, estimateTokenizer);
        expect(whole.units?.some((unit) => unit.truncated)).toBe(false);
        expect(whole.content).not.toContain('[… truncado …]\n\n###');
      }),
    );
  });
});
