import { defineConfig } from 'vitest/config';

/**
 * One project per tier, so `npm test -- --project unit` runs in seconds; `npm test` runs them all. Every test
 * file is in exactly one project (`src/testing/test-tiers.unit.test.ts` checks that none is left out):
 * - unit: `*.unit.test.ts`, pure (the web UI's folds under test/browser included);
 * - int: `*.int.test.ts`, database, filesystem, git, local servers;
 * - e2e: `src/**\/*.e2e.test.ts`, the real `forja` process;
 * - browser: `test/browser/**\/*.e2e.test.ts`, the built web UI in Chromium.
 */
export const TEST_TIERS = {
  unit: { include: ['src/**/*.unit.test.ts', 'test/**/*.unit.test.ts'] },
  int: { include: ['src/**/*.int.test.ts', 'test/**/*.int.test.ts'] },
  e2e: { include: ['src/**/*.e2e.test.ts'] },
  browser: { include: ['test/browser/**/*.e2e.test.ts'] },
} as const;

export default defineConfig({
  test: {
    pool: 'forks',
    // Most files wait on processes, sockets and the database rather than the CPU: on a 2-core machine vitest's
    // default (cores - 1) ran the suite one file at a time.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    allowOnly: false,
    projects: Object.entries(TEST_TIERS).map(([name, tier]) => ({
      extends: true,
      // Pure tests share a worker's modules: 109 files start in a fifth of the time they take in forks.
      test: {
        name,
        include: [...tier.include],
        ...(name === 'unit' ? { pool: 'threads' as const, isolate: false } : {}),
      },
    })),
  },
});
