import { afterEach, describe, expect, it } from 'vitest';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { spawnCounts } from '../workspace/spawn/spawn-counts.ts';
import { playDevPhase } from './testing/play-dev-phase.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';
import { startLine } from './testing/start-line.ts';
import { workingLineScript } from './testing/working-line-script.ts';

/**
 * What the production line starts per module (ADR 0428): a dev's worktree, its commit and its merge into `dev`
 * take git commands batched and cached — under 20 git processes per module, where they took about 38 before —
 * and bubblewrap runs the finish check of each module and, at each merge, the check of every module merged so
 * far (modules ready together are merged together, their checks run once), nothing more.
 */

const MODULES = 3;
/** The most git processes a module's dev phase may start: worktree, commit, merge (ADR 0428). */
const GIT_PER_MODULE = 20;

const engine = testDatabaseEngines()[0]!;
let close: (() => Promise<unknown>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

describe('the processes a line starts', () => {
  it(`starts at most ${GIT_PER_MODULE} git per module, and one sandbox per check, for a line of ${MODULES} modules that write, commit and merge`, async () => {
    const line = await startLine(engine, workingLineScript({ modules: MODULES, devDelayMs: 0 }), {
      FORJA_MAX_PARALLEL_TURNS: '8',
    });
    close = line.close;
    const { sessionId } = await playUpToTheDevs(line.forja);
    const before = spawnCounts();
    await playDevPhase(line.forja, sessionId, MODULES);
    const after = spawnCounts();
    const started = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
    expect(started('git')).toBeGreaterThan(0);
    expect(started('git') / MODULES).toBeLessThanOrEqual(GIT_PER_MODULE);
    // Each module's finish check, and each merge's integration check: at least each module's once (all merged
    // together), at most the checks of the k modules merged by then at the k-th merge (one at a time).
    expect(started('bwrap')).toBeGreaterThanOrEqual(MODULES + MODULES);
    expect(started('bwrap')).toBeLessThanOrEqual(MODULES + (MODULES * (MODULES + 1)) / 2);
  }, 120_000);
});
