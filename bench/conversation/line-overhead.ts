import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { createForja, type Forja } from '../../src/composition.ts';
import { loadConfig } from '../../src/config/config.ts';
import { playDevPhase } from '../../src/conversation/testing/play-dev-phase.ts';
import { playUpToTheDevs } from '../../src/conversation/testing/play-up-to-the-devs.ts';
import { workingLineScript } from '../../src/conversation/testing/working-line-script.ts';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { migrate } from '../../src/store/migrations/migrate.ts';
import { openPgliteDatabase } from '../../src/store/pglite-database.ts';
import { spawnCounts } from '../../src/workspace/spawn/spawn-counts.ts';
import {
  type SpawnPath,
  setSpawnPath,
  spawnHelperPid,
  spawnProcess,
} from '../../src/workspace/spawn/spawn-process.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { percentile, round } from '../lib/latency.ts';

const SIZES = [1, 2, 4, 8] as const;
const PATHS: readonly SpawnPath[] = ['direct', 'helper'];
const ROUNDS = 3;
const PARALLEL_TURNS = 8;
const DEV_DELAY_MS = 1000;
/** Clock ticks per second of /proc/<pid>/stat (Linux's USER_HZ). */
const TICKS_PER_SECOND = 100;

interface Sample {
  wallMs: number;
  ownCpuMs: number;
  childCpuMs: number;
  git: number;
  bwrap: number;
  rssMb: number;
}

/**
 * The production line's own overhead (ADR 0428): the dev phase of a scripted line of 1, 2, 4 and 8 independent
 * modules at FORJA_MAX_PARALLEL_TURNS=8, each dev four model calls of 1 s that read the contracts, write
 * src/<module>.ts, finish the task (its check in the sandbox, a commit) and answer, after which the line merges
 * the module into dev (the integration check in the sandbox). Measured from accepting the dev handoffs to the
 * line completed: wall time, Forja's own CPU (process.cpuUsage) and its children's (git, bubblewrap: reaped
 * by Forja, or by the spawn helper, whose own CPU is counted too), and the git and bwrap processes started,
 * per module. The two spawn paths — `direct` (fork of Forja, as before) and `helper` (the small spawn helper)
 * — alternate run by run in the same process, each size interleaved within every round.
 */
export async function run(): Promise<BenchReport> {
  const samples = new Map<string, Sample[]>();
  for (let round = 0; round < ROUNDS; round += 1)
    for (const modules of SIZES)
      for (const path of round % 2 === 0 ? PATHS : [...PATHS].reverse()) {
        const key = `${modules}/${path}`;
        samples.set(key, [...(samples.get(key) ?? []), await devPhase(modules, path)]);
      }
  const median = (key: string, pick: (sample: Sample) => number) =>
    percentile((samples.get(key) ?? []).map(pick), 50);
  const rows: BenchReport['rows'] = [];
  for (const modules of SIZES)
    for (const path of PATHS) {
      const key = `${modules}/${path}`;
      rows.push({
        measure: `dev phase, ${modules} module${modules === 1 ? '' : 's'}, spawn ${path}`,
        runs: ROUNDS,
        wall_p50_ms: round(
          median(key, (sample) => sample.wallMs),
          0,
        ),
        own_cpu_per_module_ms: round(median(key, (sample) => sample.ownCpuMs) / modules, 0),
        child_cpu_per_module_ms: round(median(key, (sample) => sample.childCpuMs) / modules, 0),
        git_per_module: round(median(key, (sample) => sample.git) / modules, 1),
        bwrap_per_module: round(median(key, (sample) => sample.bwrap) / modules, 1),
        rss_mb: round(
          median(key, (sample) => sample.rssMb),
          0,
        ),
      });
    }
  for (const modules of SIZES)
    rows.push({
      measure: `helper / direct, ${modules} module${modules === 1 ? '' : 's'}`,
      wall: round(
        median(`${modules}/helper`, (sample) => sample.wallMs) /
          median(`${modules}/direct`, (sample) => sample.wallMs),
        3,
      ),
      own_cpu: round(
        median(`${modules}/helper`, (sample) => sample.ownCpuMs) /
          median(`${modules}/direct`, (sample) => sample.ownCpuMs),
        3,
      ),
    });
  for (const path of PATHS)
    rows.push({
      measure: `dev phase wall 8 modules / 1 module, spawn ${path} (goal ≤ 1.5)`,
      value: round(
        median(`8/${path}`, (sample) => sample.wallMs) /
          median(`1/${path}`, (sample) => sample.wallMs),
        3,
      ),
    });
  rows.push(...(await spawnCost()));
  return {
    name: 'line-overhead',
    rows,
    notes: [
      `${ROUNDS} rounds; in each, sizes ${SIZES.join(', ')} in turn, the two spawn paths alternating (their order flips every round); a fresh data directory and in-memory PGlite per run, one Node process for all. Each dev: 4 scripted model calls of delay_ms ${DEV_DELAY_MS} (so ${(4 * DEV_DELAY_MS) / 1000} s of model time per dev, all devs side by side at FORJA_MAX_PARALLEL_TURNS=${PARALLEL_TURNS}).`,
      "Wall: POST /dev-handoffs/accept to the session idle with line.completed recorded and every module merged. CPU: process.cpuUsage of the Forja process, and its children's from /proc (cutime+cstime of Forja, plus the spawn helper's own and children's time); per module = the run's figure / modules.",
      `Spawn cost: after the lines, in this process at its RSS then, ${SPAWN_SAMPLES} starts of git --version per path, alternating: sync = the main thread inside the start call; wall = start to close.`,
      'git and bwrap per module: processes started during the dev phase (spawnCounts), / modules. bwrap: the finish check of each module, and per merge the check of every module merged so far (modules ready together merge together, their checks run once).',
    ],
  };
}

const SPAWN_SAMPLES = 60;

/** One `git --version`: the time the start call held the main thread, and the time to its close. */
function oneSpawn(path: SpawnPath): Promise<{ syncMs: number; wallMs: number }> {
  setSpawnPath(path);
  return new Promise((resolve) => {
    const start = performance.now();
    const child = spawnProcess({ file: 'git', args: ['--version'], cwd: '/', env: {} });
    const syncMs = performance.now() - start;
    child.on('error', () => undefined);
    child.on('close', () => resolve({ syncMs, wallMs: performance.now() - start }));
  });
}

/** What one start of a process costs this (large) process on each path, interleaved. */
async function spawnCost(): Promise<BenchReport['rows']> {
  const samples: Record<SpawnPath, Array<{ syncMs: number; wallMs: number }>> = {
    direct: [],
    helper: [],
  };
  for (let index = 0; index < SPAWN_SAMPLES; index += 1)
    for (const path of index % 2 === 0 ? PATHS : [...PATHS].reverse())
      samples[path].push(await oneSpawn(path));
  const rssMb = round(process.memoryUsage().rss / 1e6, 0);
  return PATHS.map((path) => ({
    measure: `one spawn of git --version at ${rssMb} MB RSS, spawn ${path}`,
    runs: SPAWN_SAMPLES,
    sync_p50_ms: round(
      percentile(
        samples[path].map((sample) => sample.syncMs),
        50,
      ),
      2,
    ),
    wall_p50_ms: round(
      percentile(
        samples[path].map((sample) => sample.wallMs),
        50,
      ),
      2,
    ),
  }));
}

async function startForja(
  modules: number,
): Promise<{ forja: Forja; dispose: () => Promise<void> }> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-bench-overhead-'));
  const loaded = loadConfig({
    FORJA_DATA_DIR: dataDirectory,
    FORJA_MAX_PARALLEL_TURNS: String(PARALLEL_TURNS),
    LOG_LEVEL: 'silent',
  });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const database = await openPgliteDatabase();
  await migrate(database);
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    env: {},
    database,
    provider: createScriptedProvider({
      script: workingLineScript({ modules, devDelayMs: DEV_DELAY_MS }),
    }),
    memory: { workers: false },
  });
  return {
    forja,
    dispose: async () => {
      await forja.close();
      await database.close();
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

/** CPU milliseconds of `pid` from /proc: its own (utime+stime) and its reaped children's (cutime+cstime). */
function procCpuMs(pid: number | 'self'): { own: number; children: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = (index: number) => Number(fields[index - 3]);
  const toMs = (value: number) => (value * 1000) / TICKS_PER_SECOND;
  return { own: toMs(ticks(14) + ticks(15)), children: toMs(ticks(16) + ticks(17)) };
}

/** CPU of the processes Forja started so far: its reaped children's, and the helper's whole. */
function childCpuMs(path: SpawnPath): number {
  const mine = procCpuMs('self').children;
  if (path === 'direct') return mine;
  const helper = procCpuMs(spawnHelperPid() ?? 'self');
  return mine + helper.own + helper.children;
}

async function devPhase(modules: number, path: SpawnPath): Promise<Sample> {
  setSpawnPath(path);
  const { forja, dispose } = await startForja(modules);
  try {
    const { sessionId } = await playUpToTheDevs(forja);
    const counts = spawnCounts();
    const cpu = process.cpuUsage();
    const children = childCpuMs(path);
    const start = performance.now();
    await playDevPhase(forja, sessionId, modules);
    const wallMs = performance.now() - start;
    const used = process.cpuUsage(cpu);
    const after = spawnCounts();
    const started = (name: string) => (after[name] ?? 0) - (counts[name] ?? 0);
    return {
      wallMs,
      ownCpuMs: (used.user + used.system) / 1000,
      childCpuMs: childCpuMs(path) - children,
      git: started('git'),
      bwrap: started('bwrap'),
      rssMb: process.memoryUsage().rss / 1e6,
    };
  } finally {
    await dispose();
  }
}
