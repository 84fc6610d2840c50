import { globSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TEST_TIERS } from '../../vitest.config.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const filesOf = (patterns: readonly string[]) =>
  new Set(patterns.flatMap((pattern) => globSync(pattern, { cwd: ROOT })));

describe('test tiers (vitest projects)', () => {
  it('puts every test file in exactly one tier, so `npm test` runs each once and none is left out', () => {
    const all = filesOf(['src/**/*.test.ts', 'test/**/*.test.ts']);
    const tiers = Object.entries(TEST_TIERS).map(([name, tier]) => ({
      name,
      files: filesOf(tier.include),
    }));
    const problems = [...all].flatMap((file) => {
      const owners = tiers.filter((tier) => tier.files.has(file)).map((tier) => tier.name);
      return owners.length === 1 ? [] : [`${file}: in ${owners.join(', ') || 'no tier'}`];
    });
    expect(problems).toEqual([]);
    expect(all.size).toBeGreaterThan(150);
  });
});
