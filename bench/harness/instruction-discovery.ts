import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInstructionFiles, discoverInstructionFiles } from '../../src/harness/index.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { percentile, round } from '../lib/latency.ts';

const TOP_DIRECTORIES = 100;
const SUBDIRECTORIES_EACH = 99; // 100 + 100 × 99 = 10,000 directories in the project tree
const FILES_PER_LEAF = 10; // 99,000 files in the project tree
const EXTRA_FILES = 500; // in .git and in node_modules each: 100,000 files in all
const COLD_RUNS = 5; // generating and removing the tree (~10-25 s each on this machine) dominates the run
const CACHED_LOADS = 2000;

/** Generates the tree and returns its counts: AGENTS.md at the root, in every top directory and every 100th leaf. */
function generateTree(root: string) {
  let files = 0;
  let directories = 0;
  const file = (path: string, content = 'x') => (writeFileSync(path, content), files++);
  const directory = (path: string) => (mkdirSync(path, { recursive: true }), directories++);
  file(join(root, '.gitignore'), 'node_modules/\n*.log\n');
  file(join(root, 'AGENTS.md'), '# root\n');
  directories += 4; // .git, .git/objects, node_modules, node_modules/lib (made by the recursive mkdir below)
  for (const hidden of ['.git/objects', 'node_modules/lib']) {
    for (let bucket = 0; bucket < 10; bucket++) {
      directory(join(root, hidden, String(bucket)));
      for (let index = 0; index < EXTRA_FILES / 10; index++) {
        file(join(root, hidden, String(bucket), index === 0 ? 'AGENTS.md' : `f${index}`));
      }
    }
  }
  for (let top = 0; top < TOP_DIRECTORIES; top++) {
    directory(join(root, `pkg${top}`));
    file(join(root, `pkg${top}`, 'AGENTS.md'), `# pkg${top}\n`);
    for (let sub = 0; sub < SUBDIRECTORIES_EACH; sub++) {
      const leaf = join(root, `pkg${top}`, `mod${sub}`);
      directory(leaf);
      for (let index = 0; index < FILES_PER_LEAF; index++) file(join(leaf, `file${index}.ts`), '');
      if (sub % 100 === 7) file(join(leaf, 'AGENTS.md'), `# pkg${top}/mod${sub}\n`);
    }
  }
  return { files, directories };
}

function timeFind(root: string): { ms: number; found: number } {
  const start = performance.now();
  const result = spawnSync('find', [root, '-name', 'AGENTS.md', '-not', '-path', '*/.git/*'], { encoding: 'utf8' });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`find failed: ${result.stderr}`);
  return { ms, found: result.stdout.split('\n').filter(Boolean).length };
}

async function timeAsync<T>(operation: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await operation();
  return { ms: performance.now() - start, value };
}

/**
 * (a) Instruction discovery on a generated tree of ~100,000 files in ~10,000 directories, next to `find` in
 * the same run. "Cold" means a fresh loader with nothing cached in the process; the OS page cache cannot
 * be dropped from here (no privilege in a container), so it is warm for both, which is fair between them.
 */
export async function run(): Promise<BenchReport> {
  const root = mkdtempSync(join(tmpdir(), 'forja-bench-discovery-'));
  try {
    const generateStart = performance.now();
    const tree = generateTree(root);
    const generateMs = performance.now() - generateStart;
    const findTimes: number[] = [];
    const coldTimes: number[] = [];
    let findCount = 0;
    let discoveredCount = 0;
    for (let runIndex = 0; runIndex < COLD_RUNS; runIndex++) {
      // Interleaved, so both see the same state of the page cache.
      const find = timeFind(root);
      findTimes.push(find.ms);
      findCount = find.found;
      const loader = createInstructionFiles({ flags: { graph_instruction_templates_enabled: false }, clock: Date.now });
      const cold = await timeAsync(() => loader.load({ workspaceDir: root, agent: 'dev' }));
      coldTimes.push(cold.ms);
      discoveredCount = cold.value.sources.length;
    }
    const walkOnly = await timeAsync(() => discoverInstructionFiles(root));
    const loader = createInstructionFiles({ flags: { graph_instruction_templates_enabled: false }, clock: Date.now });
    await loader.load({ workspaceDir: root, agent: 'dev' });
    const cachedTimes: number[] = [];
    for (let index = 0; index < CACHED_LOADS; index++) {
      cachedTimes.push((await timeAsync(() => loader.load({ workspaceDir: root, agent: 'dev' }))).ms);
    }
    const findMedian = percentile(findTimes, 50);
    const coldMedian = percentile(coldTimes, 50);
    const cachedMedian = percentile(cachedTimes, 50);
    const row = (name: string, times: number[], found: number, digits = 3) => ({
      case: name,
      runs: times.length,
      median_ms: round(percentile(times, 50), digits),
      p95_ms: round(percentile(times, 95), digits),
      found,
      vs_find: round(percentile(times, 50) / findMedian, 5),
    });
    return {
      name: 'instruction-discovery',
      rows: [
        row("find DIR -name AGENTS.md -not -path '*/.git/*'", findTimes, findCount),
        row('loader.load, cold (fresh loader)', coldTimes, discoveredCount),
        row('discoverInstructionFiles, once more', [walkOnly.ms], walkOnly.value.sources.length),
        row('loader.load, cached', cachedTimes, discoveredCount, 4),
      ],
      notes: [
        `tree: ${tree.files} files in ${tree.directories} directories (generated in ${Math.round(generateMs)} ms), ` +
          `incl. ${EXTRA_FILES} files each in .git and in a .gitignored node_modules`,
        'find walks node_modules (it knows no .gitignore) and so lists more files; the loader skips it, as designed',
        'cold = a fresh loader, nothing cached in the process; the OS page cache cannot be dropped here, ' +
          'so it is warm for find and the loader alike (runs are interleaved)',
        `cold is ${round(coldMedian / findMedian, 2)}× find (target ≤ 1.5×); ` +
          `cached is ${Math.round(coldMedian / cachedMedian)}× faster than cold (target ≥ 100×)`,
      ],
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
