/**
 * Benchmark (ADRs 0181, 0215): how long the event loop waits while the memory workers drain a backlog on
 * PGlite on disk. `perf_hooks`' `monitorEventLoopDelay` samples the loop while the production workers
 * (`createMemory`'s graph projector and RAG indexer, woken by NOTIFY) project and index a realistic backlog, with
 * PGlite on its worker thread as `forja serve` opens it (ADR 0215). Beside it, interleaved in every round: the
 * loop idle for as long (the floor of this machine), the same workers with PGlite on the main thread (ADR 0181:
 * 10 rows a transaction, an 8 ms budget), and as they were before ADR 0181 (10 rows, no budget); and the worker
 * thread as it was before ADR 0427 (`git archive` of BASELINE_REVISION: requests answered in arrival order, the
 * memory workers' among the foreground's). A probe query (`select 1`, every 25 ms) measures how long a request
 * waits for the database meanwhile.
 */
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import pino from 'pino';
import {
  createGraphProjector,
  createLocalEmbedder,
  createMemory,
  createPostgresGraphStore,
  createRagIndexer,
  graphProjectionRule,
  GRAPH_PROJECTION_AGGREGATE,
  RAG_INDEX_AGGREGATE,
  ragIndexRule,
  type Memory,
} from '../../src/memory/index.ts';
import {
  createEventLog,
  createProject,
  createSession,
  type Database,
  type EventLog,
  type NewSessionEvent,
} from '../../src/store/index.ts';
import { baselineTree } from '../lib/baseline-tree.ts';
import { openBenchPglite, type BenchDatabase } from '../lib/bench-databases.ts';
import type { openPgliteWorkerDatabase } from '../../src/store/pglite-worker-database.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { round } from '../lib/latency.ts';
import { SESSION_EVENTS } from '../../src/domain/conversation/index.ts';
import { handoffEvent } from '../../src/domain/handoffs/index.ts';

const ROUNDS = 3;
const BACKLOG_EVENTS = 200;
const IDLE_MAX_MS = 5000;
const SESSIONS = 10;
const GOAL_P99_MS = 20;
const PROBE_EVERY_MS = 25;
const silent = pino({ level: 'silent' });
/** The commit before ADR 0427. */
const BASELINE_REVISION = process.env.FORJA_BENCH_BASELINE ?? 'eea1b76';

type CaseName = 'idle' | 'worker thread' | 'arrival order' | 'main thread' | 'no budget';
const CASES: Record<CaseName, string> = {
  idle: 'event loop idle, as long as the production drain (baseline)',
  'worker thread':
    "memory workers drain the backlog, PGlite on its worker thread, the drains' statements behind the foreground's (production: ADR 0427)",
  'arrival order': `the same, the worker answering in arrival order (before ADR 0427: ${BASELINE_REVISION})`,
  'main thread': 'the same workers, PGlite on the main thread (ADR 0181: 10 rows, 8 ms budget)',
  'no budget':
    'the same workers, PGlite on the main thread, 10 rows a transaction, no budget (baseline: before ADR 0181)',
};

interface Engine {
  bench: BenchDatabase;
  eventLog: EventLog;
  sessions: string[];
  memory: Memory;
}

async function openEngine(
  thread: 'worker' | 'main',
  openWorker?: typeof openPgliteWorkerDatabase,
): Promise<Engine> {
  const bench = await openBenchPglite({ thread, ...(openWorker ? { openWorker } : {}) });
  const { database } = bench;
  const eventLog = createEventLog(database, [graphProjectionRule, ragIndexRule]);
  const project = await createProject(database, { name: 'bench' });
  const sessions = await Promise.all(
    Array.from(
      { length: SESSIONS },
      async () => (await createSession(database, { projectId: project.id })).id,
    ),
  );
  const memory = await createMemory({
    database,
    logger: silent,
    env: {},
    intervalMs: 60_000,
    embedder: createLocalEmbedder(),
  });
  // One warm-up drain (plans, the embedder, the graph's seeded labels), not measured.
  await appendBacklog(eventLog, sessions, 100);
  await drainWithWorkers(memory, database);
  return { bench, eventLog, sessions, memory };
}

interface Samples {
  p50: number[];
  p99: number[];
  max: number[];
  ms: number[];
  probeP50: number[];
  probeP99: number[];
}

export async function run(): Promise<BenchReport> {
  const threaded = await openEngine('worker');
  const earlier = (await import(
    join(baselineTree(BASELINE_REVISION), 'src/store/pglite-worker-database.ts')
  )) as typeof import('../../src/store/pglite-worker-database.ts');
  const arrivalOrder = await openEngine('worker', earlier.openPgliteWorkerDatabase);
  const inProcess = await openEngine('main');
  // The idle case probes the production database (PGlite on its worker thread), so its probe is the floor of the
  // production row's.
  const engineOf = (name: CaseName) =>
    name === 'worker thread' || name === 'idle'
      ? threaded
      : name === 'arrival order'
        ? arrivalOrder
        : inProcess;
  const samples = Object.fromEntries(
    (Object.keys(CASES) as CaseName[]).map((name) => [
      name,
      { p50: [], p99: [], max: [], ms: [], probeP50: [], probeP99: [] },
    ]),
  ) as unknown as Record<CaseName, Samples>;
  let lastDrainMs = 1000;
  try {
    for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex += 1) {
      for (const name of Object.keys(CASES) as CaseName[]) {
        const engine = engineOf(name);
        const { database } = engine.bench;
        if (name !== 'idle') await appendBacklog(engine.eventLog, engine.sessions, BACKLOG_EVENTS);
        const monitor = monitorEventLoopDelay({ resolution: 1 });
        monitor.enable();
        // The monitor's first tick only starts its clock: let it tick before the case begins.
        await new Promise((resolve) => setTimeout(resolve, 5));
        const probe = startProbe(database);
        const started = performance.now();
        if (name === 'idle')
          await new Promise((resolve) => setTimeout(resolve, Math.min(IDLE_MAX_MS, lastDrainMs)));
        else if (name === 'no budget') await drainWithoutBudget(engine.memory, database);
        else await drainWithWorkers(engine.memory, database);
        const elapsed = performance.now() - started;
        // One more turn of the loop, so that a drain that never yielded is sampled (as one long delay).
        await new Promise((resolve) => setTimeout(resolve, 2));
        monitor.disable();
        const waits = await probe.stop();
        if (name === 'worker thread') lastDrainMs = elapsed;
        const entry = samples[name];
        entry.p50.push(monitor.percentile(50) / 1e6);
        entry.p99.push(monitor.percentile(99) / 1e6);
        entry.max.push(monitor.max / 1e6);
        entry.ms.push(elapsed);
        entry.probeP50.push(percentile(waits, 50));
        entry.probeP99.push(percentile(waits, 99));
      }
    }
  } finally {
    for (const engine of [threaded, arrivalOrder, inProcess]) {
      await engine.memory.stop();
      await engine.bench.dispose();
    }
  }
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const idleP99 = median(samples.idle.p99);
  const rows = (Object.keys(CASES) as CaseName[]).map((name) => ({
    engine: engineOf(name).bench.engine,
    case: CASES[name],
    rounds: ROUNDS,
    drain_ms: name === 'idle' ? '' : Math.round(median(samples[name].ms)),
    events_per_s:
      name === 'idle' ? '' : Math.round((BACKLOG_EVENTS * 1000) / median(samples[name].ms)),
    loop_delay_p50_ms: round(median(samples[name].p50), 2),
    loop_delay_p99_ms: round(median(samples[name].p99), 2),
    loop_delay_max_ms: round(median(samples[name].max), 2),
    p99_vs_idle: round(median(samples[name].p99) / idleP99, 2),
    probe_query_p50_ms: round(median(samples[name].probeP50), 2),
    probe_query_p99_ms: round(median(samples[name].probeP99), 2),
  }));
  return {
    name: 'drain-event-loop',
    rows,
    notes: [
      `A backlog of ${BACKLOG_EVENTS} events per round over ${SESSIONS} sessions (60% chat.message, 30% agent.response of ~900 characters, indexed for RAG, 10% handoff.offered), every one with its graph_projection row; ${ROUNDS} rounds, the four cases interleaved in each; figures are the median over rounds. Two databases (PGlite on a worker thread; PGlite on the main thread), each warmed by one unmeasured drain.`,
      `monitorEventLoopDelay at 1 ms resolution, enabled only while the case runs; the idle case waits as long as the last production drain took (at most ${IDLE_MAX_MS / 1000} s), in the same run, interleaved.`,
      `probe_query: a \`select 1\` due every ${PROBE_EVERY_MS} ms during the case, timed from when it was due to its answer (it waits for the event loop and for the one PGlite connection).`,
      `Goal: p99 ≤ ${GOAL_P99_MS} ms while the workers drain (the idle loop of this machine is the floor).`,
    ],
  };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Sends `select 1` every PROBE_EVERY_MS ms (one at a time) and records how long each took. */
function startProbe(database: Database): { stop(): Promise<number[]> } {
  const waits: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      // Timed from when it was due, not from when the loop got round to sending it: a request that arrives
      // while the loop is held waits for the loop too.
      const due = performance.now() + PROBE_EVERY_MS;
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
      await database.query('select 1');
      waits.push(performance.now() - due);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return waits;
    },
  };
}

const RESPONSE = [
  'A padaria abre às seis e entrega pão fresco na rua inteira, por assinatura semanal.',
  'Os primeiros clientes são vizinhos que trabalham cedo e não têm tempo de passar na loja.',
  'O plano mensal inclui dois pães por dia e um bolo no domingo; o anual dá um desconto.',
  'Falta decidir o horário da entrega, a forma de pagamento e o que acontece nos feriados.',
].join(' ');

function eventFor(index: number): NewSessionEvent {
  const kind = index % 10;
  if (kind < 6)
    return SESSION_EVENTS.chatMessage.create('user', {
      v: 1,
      text: `Mensagem ${index}: pão fresco entregue antes das 6h, por assinatura.`,
    });
  if (kind < 9)
    return SESSION_EVENTS.agentResponse.create('criativo', {
      v: 1,
      agent: 'criativo',
      text: `Resposta ${index}. ${RESPONSE} ${RESPONSE} ${RESPONSE}`,
    });
  return handoffEvent(
    {
      id: `handoff-${index}`,
      session_id: '',
      from_agent: 'criativo',
      to_agent: 'po',
      artifact_id: null,
      status: 'offered',
    },
    'system',
  );
}

let appended = 0;
async function appendBacklog(
  eventLog: EventLog,
  sessions: string[],
  events: number,
): Promise<void> {
  for (let index = 0; index < events; index += 10) {
    const batch = Array.from({ length: 10 }, (_, offset) => eventFor(appended + index + offset));
    const outcome = await eventLog.append(sessions[(index / 10) % sessions.length]!, batch);
    if (!outcome.success) throw new Error(outcome.error.message);
  }
  appended += events;
}

async function pendingRows(database: Database): Promise<number> {
  const result = await database.query<{ pending: number }>(
    'select count(*)::integer as pending from outbox where processed_at is null and aggregate_type = any($1::text[])',
    [[GRAPH_PROJECTION_AGGREGATE, RAG_INDEX_AGGREGATE]],
  );
  return result.rows[0]!.pending;
}

/** The production path: `forja serve`'s workers, started, drain until the outbox is empty, then stop. */
async function drainWithWorkers(memory: Memory, database: Database): Promise<void> {
  memory.start();
  while ((await pendingRows(database)) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  await memory.stop();
}

/** The same workers as `createMemory` made them before ADR 0181: PGlite's 10 rows a transaction, no budget. */
async function drainWithoutBudget(memory: Memory, database: Database): Promise<void> {
  const options = { database, logger: silent, batchSize: 10, intervalMs: 60_000 };
  const projector = createGraphProjector({ ...options, graphFor: createPostgresGraphStore });
  const indexer = createRagIndexer({
    ...options,
    embedder: memory.embedder,
    index: memory.vectorIndex,
  });
  projector.start();
  indexer.start();
  while ((await pendingRows(database)) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  await Promise.all([projector.stop(), indexer.stop()]);
}
