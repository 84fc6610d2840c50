import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createSessionEventLog } from '../../src/composition.ts';
import { SESSION_EVENTS } from '../../src/domain/conversation/index.ts';
import {
  createLocalEmbedder,
  createPostgresVectorIndex,
  embedLocally,
  ragSearch,
} from '../../src/memory/index.ts';
import {
  createEventNotifications,
  createInProcessLaneLeases,
  createSession,
  type Database,
} from '../../src/store/index.ts';
import { migrate } from '../../src/store/migrations/migrate.ts';
import { PGLITE_SHARED_BUFFERS } from '../../src/store/pglite-database.ts';
import { buildPgliteTemplate, startFromTemplate } from '../../src/store/pglite-template.ts';
import { openPgliteWorkerDatabase } from '../../src/store/pglite-worker-database.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { round, summarise, timeInterleaved } from '../lib/latency.ts';
import { loadChunks } from '../memory/rag-search.ts';
import { syntheticCorpus } from '../memory/synthetic-corpus.ts';

/** One probe run's settings and work. */
export interface ProbeSettings {
  /** PostgreSQL's shared_buffers; undefined: production's. */
  sharedBuffers?: string;
  /** From the template `npm ci` builds (production), or PGlite's initdb (`FORJA_PGLITE_TEMPLATE=off`). */
  template: boolean;
  appends: number;
  chunks: number;
  searches: number;
}

/** What one run measured, in MB: RSS after each stage, the peak (VmHWM) and RSS at rest after the work. */
export type ProbeResult = Record<Stage | 'peak' | 'rest', number>;

/** What the probe (pglite-memory-probe.ts) reads RSS after, in order. */
export const STAGES = [
  'node',
  'bare_worker',
  'pglite_open',
  'migrated',
  'extensions',
  'worked',
] as const;
export type Stage = (typeof STAGES)[number];

const PROBE = fileURLToPath(new URL('./pglite-memory-probe.ts', import.meta.url));
const FORJA = fileURLToPath(new URL('../../bin/forja.ts', import.meta.url));
const ROUNDS = Number(process.env.FORJA_BENCH_MEMORY_ROUNDS ?? 3);
const WORK = { appends: 300, chunks: 1000, searches: 20 };
/** The settings compared for speed: PostgreSQL's default, production's (ADR 0429) and smaller ones. */
const SPEED_SETTINGS = [...new Set(['128MB', '64MB', '32MB', '16MB', PGLITE_SHARED_BUFFERS])];
const SPEED_CHUNKS = Number(process.env.FORJA_BENCH_MEMORY_CHUNKS ?? 20_000);
const APPENDS = 1000;
const SEARCHES = 200;

interface Case {
  name: string;
  settings: Omit<ProbeSettings, keyof typeof WORK>;
  execArgv?: string[];
}

const label = (size: string) =>
  `shared_buffers ${size}${size === PGLITE_SHARED_BUFFERS ? ' (production)' : size === '128MB' ? " (PostgreSQL's default; before ADR 0429)" : ''}`;

const CASES: Case[] = [
  ...['128MB', '64MB', '32MB', '16MB', '8MB'].map((sharedBuffers) => ({
    name: label(sharedBuffers),
    settings: { sharedBuffers, template: true },
  })),
  {
    name: 'shared_buffers 128MB, initdb (FORJA_PGLITE_TEMPLATE=off, before)',
    settings: { sharedBuffers: '128MB', template: false },
  },
  {
    name: `shared_buffers ${PGLITE_SHARED_BUFFERS}, initdb (FORJA_PGLITE_TEMPLATE=off)`,
    settings: { template: false },
  },
  {
    name: `shared_buffers ${PGLITE_SHARED_BUFFERS}, node --liftoff-only (not applied)`,
    settings: { template: true },
    execArgv: ['--liftoff-only'],
  },
];

/**
 * Where the memory of PGlite goes (ADR 0429): the RSS of a process, in MB, after each stage of opening PGlite on
 * its worker thread as `openDatabase` does — a bare worker thread, PGlite open, the migrations, pgvector and
 * unaccent loaded, some work — under several `shared_buffers`, each run a process of its own, the cases
 * interleaved round by round; `forja serve` at rest; then what the setting costs in speed: an append and a
 * `rag_search` on databases that differ only in it, interleaved.
 */
export async function run(): Promise<BenchReport> {
  await buildPgliteTemplate();
  const rows: BenchReport['rows'] = [];
  const results = new Map<string, ProbeResult[]>(CASES.map((entry) => [entry.name, []]));
  for (let round = 0; round < ROUNDS; round += 1)
    for (const entry of CASES) results.get(entry.name)!.push(await probe(entry));
  for (const entry of CASES) {
    const runs = results.get(entry.name)!;
    const median = (field: keyof ProbeResult) => medianOf(runs.map((result) => result[field]));
    rows.push({
      case: entry.name,
      ...Object.fromEntries(STAGES.map((stage) => [`${stage}_mb`, median(stage)])),
      rest_mb: median('rest'),
      peak_mb: median('peak'),
    });
  }
  rows.push(await serveAtRest());
  rows.push(...(await measureSpeed()));
  return {
    name: 'pglite-memory',
    rows,
    notes: [
      `RSS of the whole process in MB (VmRSS), median of ${ROUNDS} runs, each a new process (bench/store/pglite-memory-probe.ts), cases interleaved round by round. Stages, cumulative: node = Node with Forja's modules loaded; bare_worker = plus an idle worker thread; pglite_open = plus PGlite opened on its own worker thread from a copy of the template, as openDatabase does; migrated = plus the migrations (none pending on the template; all of them after initdb); extensions = plus pgvector and unaccent loaded by a first use; worked = plus ${WORK.appends} appends with production's outbox rules, ${WORK.chunks} RAG chunks indexed (HNSW) and ${WORK.searches} hybrid rag_search; rest = 3 s later; peak = the process's high-water mark (VmHWM).`,
      'Each stage is read once RSS has settled: for about a second after PGlite opens, V8 optimises its WebAssembly in the background and holds some 450 MB it then gives back; that is the start peak. --liftoff-only (no optimising compiler) shows it; it is not applied (Postgres would run on baseline code).',
      '`forja serve`: bin/forja.ts serve on an empty data directory (from the template), RSS of its process once listening and settled, and its peak; production settings only.',
      `Speed: databases on disk, each on its worker thread, copies of one data directory with ${SPEED_CHUNKS} RAG chunks (FORJA_BENCH_MEMORY_CHUNKS) and HNSW, differing only in shared_buffers; interleaved: ${APPENDS} appends of a chat message through the production event log (createSessionEventLog) and ${SEARCHES} hybrid rag_search each. vs_128MB: p50 against the same case at 128MB.`,
    ],
  };
}

function probe(entry: Case): Promise<ProbeResult> {
  return promisify(execFile)(
    process.execPath,
    [...(entry.execArgv ?? []), PROBE, JSON.stringify({ ...entry.settings, ...WORK })],
    { maxBuffer: 1 << 20 },
  ).then(({ stdout }) => JSON.parse(stdout.trim().split('\n').at(-1)!) as ProbeResult);
}

function medianOf(values: number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1]!;
}

/** `forja serve` on an empty data directory: its RSS once listening and settled, and its peak, median of runs. */
async function serveAtRest(): Promise<BenchReport['rows'][number]> {
  const rests: number[] = [];
  const peaks: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const directory = mkdtempSync(join(tmpdir(), 'forja-serve-memory-'));
    try {
      const { rest, peak } = await serveOnce(directory);
      rests.push(rest);
      peaks.push(peak);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }
  return {
    case: `forja serve at rest (shared_buffers ${PGLITE_SHARED_BUFFERS}, from the template)`,
    rest_mb: medianOf(rests),
    peak_mb: medianOf(peaks),
  };
}

async function serveOnce(dataDirectory: string): Promise<{ rest: number; peak: number }> {
  const child = spawn(process.execPath, [FORJA, 'serve'], {
    env: {
      ...process.env,
      PORT: '0',
      FORJA_DATA_DIR: dataDirectory,
      DATABASE_URL: '',
      FORJA_MODEL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((done) => child.once('exit', done));
  try {
    await new Promise<void>((listening, failed) => {
      let output = '';
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Forja is listening')) listening();
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (code) =>
        failed(new Error(`forja serve exited (${code}): ${output.slice(-500)}`)),
      );
    });
    const megabytes = (field: 'VmRSS' | 'VmHWM') => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Math.round(Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1]) / 1024);
    };
    let last = megabytes('VmRSS');
    for (let waited = 0; waited < 15_000; waited += 500) {
      await sleep(500);
      const now = megabytes('VmRSS');
      if (Math.abs(now - last) <= 2) break;
      last = now;
    }
    return { rest: megabytes('VmRSS'), peak: megabytes('VmHWM') };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** An append and a rag_search on databases that differ only in shared_buffers, interleaved. */
async function measureSpeed(): Promise<BenchReport['rows']> {
  const directory = mkdtempSync(join(tmpdir(), 'forja-pglite-speed-'));
  try {
    const corpus = syntheticCorpus({ chunks: SPEED_CHUNKS, queries: SEARCHES });
    const source = join(directory, 'source');
    startFromTemplate(source);
    const loading = await openPgliteWorkerDatabase({ dataDirectory: source });
    await migrate(loading);
    const projectId = await loadChunks(
      loading,
      corpus.chunks,
      corpus.chunks.map((text) => embedLocally(text)),
      true,
      [],
      'pglite',
    );
    await loading.close();
    const opened = await Promise.all(
      SPEED_SETTINGS.map(async (sharedBuffers) => {
        const pgdata = join(directory, sharedBuffers);
        cpSync(source, pgdata, { recursive: true });
        const database = await openPgliteWorkerDatabase({ dataDirectory: pgdata, sharedBuffers });
        return { sharedBuffers, database, ...(await speedCases(database, projectId, corpus)) };
      }),
    );
    const operations: Record<string, () => Promise<unknown>> = {};
    const iterations: Record<string, number> = {};
    for (const { sharedBuffers, append, search } of opened) {
      operations[`${sharedBuffers}|append`] = append;
      iterations[`${sharedBuffers}|append`] = APPENDS;
      operations[`${sharedBuffers}|search`] = search;
      iterations[`${sharedBuffers}|search`] = SEARCHES;
    }
    const durations = await timeInterleaved(operations, iterations);
    for (const { database, close } of opened) {
      await close();
      await database.close();
    }
    return opened.flatMap(({ sharedBuffers }) =>
      (['append', 'search'] as const).map((kind) => {
        const summary = summarise(durations[`${sharedBuffers}|${kind}`]!);
        const before = summarise(durations[`128MB|${kind}`]!);
        return {
          case: `speed, shared_buffers ${sharedBuffers}${sharedBuffers === PGLITE_SHARED_BUFFERS ? ' (production)' : ''}: ${kind === 'append' ? 'append a chat message' : `hybrid rag_search, ${SPEED_CHUNKS} chunks`}`,
          operations: summary.operations,
          p50_ms: summary.p50_ms,
          p99_ms: summary.p99_ms,
          vs_128MB: round(summary.p50_ms / before.p50_ms, 2),
        };
      }),
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

async function speedCases(
  database: Database,
  projectId: string,
  corpus: { queries: string[] },
): Promise<{
  append: () => Promise<unknown>;
  search: () => Promise<unknown>;
  close: () => Promise<void>;
}> {
  const notifications = await createEventNotifications(database);
  const eventLog = createSessionEventLog(
    database,
    createInProcessLaneLeases(randomUUID()),
    notifications,
  );
  const session = await createSession(database, { projectId });
  const embedder = createLocalEmbedder();
  const index = await createPostgresVectorIndex(database);
  let query = 0;
  return {
    append: async () => {
      const outcome = await eventLog.append(session.id, [
        SESSION_EVENTS.chatMessage.create('user', {
          v: 1,
          text: 'A bakery that delivers at dawn.',
        }),
      ]);
      if (!outcome.success) throw new Error(outcome.error.message);
    },
    search: async () => {
      const result = await ragSearch({ embedder, index }, projectId, {
        query: corpus.queries[query++ % corpus.queries.length]!,
        k: 10,
      });
      if (result.degraded) throw new Error(`degraded: ${result.reason}`);
    },
    close: () => notifications.close(),
  };
}
