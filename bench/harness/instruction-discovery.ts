import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  createBpeTokenizer,
  createInstructionFiles,
  discoverInstructionFiles,
  isStillFresh,
} from '../../src/harness/index.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { percentile, round } from '../lib/latency.ts';

const PACKAGES = 200;
const SOURCE_FILES_PER_PACKAGE = 20; // 4,000 tracked source files
const NODE_MODULES_DIRECTORIES = 500;
const NODE_MODULES_FILES_EACH = 100; // 50,000 ignored files
const COLD_RUNS = 20;
const CACHED_LOADS = 2000;
const SCOPE = 'packages/pkg-7';

/**
 * A monorepo shaped like the real ones: a root AGENTS.md, packages/AGENTS.md, 200 packages each with its
 * own AGENTS.md (every tenth with one more in src/), committed; a .gitignored node_modules of 50,000 files
 * with AGENTS.md files of its own (vendored), untracked.
 */
function generateTree(root: string) {
  let files = 0;
  const file = (path: string, content = 'x') => (writeFileSync(path, content), files++);
  file(join(root, '.gitignore'), 'node_modules/\n*.log\n');
  file(join(root, 'AGENTS.md'), `# Root\n${'Use pnpm. Every change has a test.\n'.repeat(40)}`);
  mkdirSync(join(root, 'packages'));
  file(
    join(root, 'packages', 'AGENTS.md'),
    '# Packages\nEach package exports from src/index.ts.\n',
  );
  for (let index = 0; index < PACKAGES; index++) {
    const source = join(root, 'packages', `pkg-${index}`, 'src');
    mkdirSync(source, { recursive: true });
    file(join(root, 'packages', `pkg-${index}`, 'AGENTS.md'), `# pkg-${index}\nLocal rules.\n`);
    if (index % 10 === 0) file(join(source, 'AGENTS.md'), `# pkg-${index}/src\n`);
    for (let sourceFile = 0; sourceFile < SOURCE_FILES_PER_PACKAGE; sourceFile++)
      file(join(source, `file${sourceFile}.ts`), 'export {};\n');
  }
  for (let directory = 0; directory < NODE_MODULES_DIRECTORIES; directory++) {
    const path = join(root, 'node_modules', `dep-${directory}`);
    mkdirSync(path, { recursive: true });
    for (let index = 0; index < NODE_MODULES_FILES_EACH; index++)
      file(join(path, index === 0 ? 'AGENTS.md' : `f${index}.js`));
  }
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      [
        '-c',
        'user.name=bench',
        '-c',
        'user.email=bench@forja',
        '-c',
        'commit.gpgsign=false',
        ...args,
      ],
      { cwd: root },
    );
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'monorepo');
  return { files };
}

function timeGitListing(root: string): { ms: number; listed: number } {
  const start = performance.now();
  const result = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`git ls-files failed: ${result.stderr}`);
  return { ms, listed: result.stdout.split('\0').filter(Boolean).length };
}

async function timeAsync<T>(operation: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await operation();
  return { ms: performance.now() - start, value };
}

const newLoader = () =>
  createInstructionFiles({
    flags: { graph_instruction_templates_enabled: false },
    clock: Date.now,
  });

/**
 * Instruction discovery on a generated monorepo (200 packages, nested AGENTS.md, an ignored node_modules of
 * 50,000 files), next to `git ls-files -co --exclude-standard` in the same run, 20 runs interleaved. Cold
 * means a fresh loader; the OS page cache cannot be dropped here (no privilege in a container), so it is
 * warm for both. Cached loads include the freshness check every load makes; the check is also timed alone.
 */
export async function run(): Promise<BenchReport> {
  const root = mkdtempSync(join(tmpdir(), 'forja-bench-discovery-'));
  try {
    const generateStart = performance.now();
    const tree = generateTree(root);
    const generateMs = performance.now() - generateStart;
    // Files older than the freshness check's racy window, as in a repository that is not being edited.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const gitTimes: number[] = [];
    const coldTimes: number[] = [];
    let listed = 0;
    let selected = 0;
    for (let runIndex = 0; runIndex < COLD_RUNS; runIndex++) {
      const git = timeGitListing(root);
      gitTimes.push(git.ms);
      listed = git.listed;
      const cold = await timeAsync(() =>
        newLoader().load({ workspaceDir: root, agent: 'dev:pkg-7', scope: SCOPE }),
      );
      coldTimes.push(cold.ms);
      selected = cold.value.sources.length;
    }
    const discovered = await discoverInstructionFiles(root);
    const basis = discovered.freshness!;
    const checkTimes: number[] = [];
    for (let index = 0; index < CACHED_LOADS; index++) {
      const start = performance.now();
      if (!isStillFresh(basis, SCOPE)) throw new Error('the tree changed under the benchmark');
      checkTimes.push(performance.now() - start);
    }
    const loader = newLoader();
    await loader.load({ workspaceDir: root, agent: 'dev:pkg-7', scope: SCOPE });
    const cachedTimes: number[] = [];
    for (let index = 0; index < CACHED_LOADS; index++) {
      cachedTimes.push(
        (
          await timeAsync(() =>
            loader.load({ workspaceDir: root, agent: 'dev:pkg-7', scope: SCOPE }),
          )
        ).ms,
      );
    }
    const bpe = await createBpeTokenizer('o200k_base');
    const megabyte = 'a'.repeat(1 << 20);
    const bpeStart = performance.now();
    const bpeCount = bpe.count(megabyte);
    const bpeMs = performance.now() - bpeStart;

    const gitMedian = percentile(gitTimes, 50);
    const coldMedian = percentile(coldTimes, 50);
    const cachedMedian = percentile(cachedTimes, 50);
    const row = (name: string, times: number[], found: number | string, digits = 3) => ({
      case: name,
      runs: times.length,
      median_ms: round(percentile(times, 50), digits),
      p95_ms: round(percentile(times, 95), digits),
      found,
      vs_git_ls_files: round(percentile(times, 50) / gitMedian, 5),
    });
    return {
      name: 'instruction-discovery',
      rows: [
        row('git ls-files -co --exclude-standard -z (every file)', gitTimes, listed),
        row(
          `loader.load, cold (fresh loader; dev, scope ${SCOPE})`,
          coldTimes,
          `${discovered.sources.length} discovered, ${selected} selected`,
        ),
        row('freshness check alone (isStillFresh)', checkTimes, `${basis.stamps.size} stamps`, 4),
        row('loader.load, cached (freshness check included)', cachedTimes, selected, 4),
        row(
          'bpe:o200k_base count, 1 MB without spaces',
          [bpeMs],
          `${bpeCount.tokens} tokens, estimated: ${bpeCount.estimated}`,
        ),
      ],
      notes: [
        `tree: ${tree.files} files (generated and committed in ${Math.round(generateMs)} ms): ${PACKAGES} packages with nested AGENTS.md, ` +
          `a .gitignored node_modules of ${NODE_MODULES_DIRECTORIES * NODE_MODULES_FILES_EACH} files`,
        'discovery is the same git ls-files (its output filtered by name in the process: a glob pathspec made git slower), then an lstat and a read of each file found (realpath only for a link)',
        'cold = a fresh loader, nothing cached in the process; the OS page cache cannot be dropped here, so it is warm for git and the loader alike (runs are interleaved)',
        `cold is ${round(coldMedian / gitMedian, 2)}× git ls-files -co --exclude-standard (target ≤ 1.2×); ` +
          `a cached load, freshness check included, is ${Math.round(coldMedian / cachedMedian)}× faster than cold`,
      ],
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
