import { describe, expect, it } from 'vitest';
import { measureFile, measureFunctions } from './long-functions.ts';
import { productionSources } from './source-files.ts';

/** The longest a function of src/ or web/src/ may be: one that does more is split into named parts. */
const MAX_LINES = 120;

const lines = (count: number) => Array.from({ length: count }, (_, i) => `  const v${i} = ${i};`);

describe(`no function in src/ or web/src/ is longer than ${MAX_LINES} lines`, () => {
  it('measures declarations, arrows and methods from their first line to their closing brace', () => {
    const text = [
      'export function long() {',
      ...lines(130),
      '  const inner = () => {',
      ...lines(3),
      '  };',
      '}',
      'const object = { method() { return 1; } };',
    ].join('\n');
    const measured = measureFunctions('probe.ts', text);
    expect(measured.map(({ name, line, lines }) => [name, line, lines])).toEqual([
      ['long', 1, 137],
      ['inner', 132, 5],
      ['method', 138, 1],
    ]);
  });

  const sources = productionSources();

  it('measures the sources it guards, the composition root among them', () => {
    const functions = sources.flatMap(measureFile);
    expect(functions.length).toBeGreaterThan(1000);
    expect(functions.map((each) => each.name)).toContain('createForja');
  });

  it.each(sources)('%s has no function over the limit', (path) => {
    const long = measureFile(path)
      .filter((each) => each.lines > MAX_LINES)
      .map((each) => `${each.name} (line ${each.line}): ${each.lines} lines`);
    expect(long).toEqual([]);
  });
});
