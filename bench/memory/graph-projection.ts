import { performance } from 'node:perf_hooks';
import pino from 'pino';
import {
  createGraphProjector,
  createPostgresGraphStore,
  graphProjectionRule,
  wakeOnAppends,
  type GraphStore,
} from '../../src/memory/index.ts';
import {
  createEventLog,
  createProject,
  createSession,
  drainOutbox,
  type Database,
  type NewSessionEvent,
  type OutboxRule,
} from '../../src/store/index.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { percentile, round } from '../lib/latency.ts';
import { openBenchPglite, openBenchServer, type BenchDatabase } from '../lib/bench-databases.ts';
import { SESSION_EVENTS } from '../../src/domain/conversation/index.ts';
import { handoffEvent } from '../../src/domain/handoffs/index.ts';
import { MEMORY_EVENTS } from '../../src/domain/memory/index.ts';

const EVENTS = 2000;
const SESSIONS = 20;
const BATCH_SIZE = 100;
const LAG_SECONDS = 6;
const APPEND_EVERY_MS = 15;
const silent = pino({ level: 'silent' });

/** The same rows again under another aggregate type, drained by a handler that does nothing: the baseline. */
const BASELINE_AGGREGATE = 'bench_noop';
const baselineRule: OutboxRule = (event, sessionId) =>
  graphProjectionRule(event, sessionId).map((message) => ({
    ...message,
    aggregateType: BASELINE_AGGREGATE,
  }));

/**
 * The GraphProjector: throughput (events projected per second, draining a backlog) beside an outbox drain
 * that does nothing with the same rows, and the lag from an append's commit to the commit of its graph write
 * while events keep arriving, at a 50 ms poll and at the default 2 s poll.
 */
export async function run(): Promise<BenchReport> {
  const rows: BenchReport['rows'] = [];
  const notes: string[] = [];
  const engines: BenchDatabase[] = [await openBenchPglite()];
  const server = await openBenchServer();
  if ('unavailable' in server) notes.push(`PostgreSQL server not measured: ${server.unavailable}`);
  else engines.push(server);
  for (const engine of engines) {
    rows.push(...(await throughput(engine)));
    rows.push(await lag(engine, 50, LAG_SECONDS));
    rows.push(await lag(engine, 2000, LAG_SECONDS * 2));
    rows.push(await wokenLag(engine, LAG_SECONDS));
    await engine.dispose();
  }
  notes.push(
    `Throughput: a backlog of ${EVENTS} events (60% chat.message, 20% agent.response, 10% handoff.*, 10% hypothesis.proposed) over ${SESSIONS} sessions, drained in batches of ${BATCH_SIZE}.`,
  );
  notes.push(
    'The baseline drains the same rows with a handler that writes nothing: the difference is what the graph writes cost.',
  );
  notes.push(
    `Lag: one event appended every ${APPEND_EVERY_MS} ms; lag = commit of the drain that wrote it − return of its append. At the default 2 s poll, lag is dominated by the wait for the next cycle (about half the interval on average).`,
  );
  notes.push(
    'Woken on NOTIFY: the projector started as production starts it (its own poller at the default 2 s, woken by wakeOnAppends on every append notification, the wiring createMemory uses); the two polled rows are its baselines. Goal: p50 ≤ 10 ms.',
  );
  return { name: 'graph-projection', rows, notes };
}

function eventFor(index: number): NewSessionEvent {
  const kind = index % 10;
  if (kind < 6)
    return SESSION_EVENTS.chatMessage.create('user', {
      v: 1,
      text: `Mensagem ${index}: pão fresco entregue antes das 6h, por assinatura.`,
    });
  if (kind < 8)
    return SESSION_EVENTS.agentResponse.create('criativo', {
      v: 1,
      agent: 'criativo',
      text: `Resposta ${index}: quem são os primeiros clientes?`,
    });
  if (kind === 8)
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
  return MEMORY_EVENTS.hypothesisProposed.create('psicologo', {
    v: 1,
    hypothesis_id: `hypothesis-${index}`,
    statement: 'Decide com exemplos',
    evidence: [1],
    trigger: { kind: 'session.ended', reason: 'completed' },
    rag: { degraded: false },
  });
}

async function sessionsOf(database: Database, count: number): Promise<string[]> {
  const project = await createProject(database, { name: 'bench' });
  return Promise.all(
    Array.from(
      { length: count },
      async () => (await createSession(database, { projectId: project.id })).id,
    ),
  );
}

async function throughput({ engine, database }: BenchDatabase): Promise<BenchReport['rows']> {
  const eventLog = createEventLog(database, [graphProjectionRule, baselineRule]);
  const sessions = await sessionsOf(database, SESSIONS);
  for (let index = 0; index < EVENTS; index += 10) {
    await eventLog.append(
      sessions[(index / 10) % SESSIONS]!,
      Array.from({ length: 10 }, (_, offset) => eventFor(index + offset)),
    );
  }
  const projector = createGraphProjector({
    database,
    graphFor: createPostgresGraphStore,
    logger: silent,
    batchSize: BATCH_SIZE,
  });
  const drainAll = async (cycle: () => Promise<{ processed: number }>) => {
    const start = performance.now();
    let processed = 0;
    for (let report = await cycle(); report.processed > 0; report = await cycle())
      processed += report.processed;
    return { processed, seconds: (performance.now() - start) / 1000 };
  };
  const baseline = await drainAll(() =>
    drainOutbox(database, {
      aggregateTypes: [BASELINE_AGGREGATE],
      batchSize: BATCH_SIZE,
      handle: async () => ({ outcome: 'processed' }),
    }),
  );
  const projected = await drainAll(() => projector.runCycle());
  const row = (subject: string, result: { processed: number; seconds: number }) => ({
    engine,
    case: subject,
    events: result.processed,
    events_per_s: Math.round(result.processed / result.seconds),
    p50_ms: '',
    p99_ms: '',
  });
  return [
    row('outbox drain, no-op handler (baseline)', baseline),
    row('graph projection (write use cases)', projected),
  ];
}

/** What both lag cases start from: the event log, its sessions, and no graph backlog left over. */
async function lagSetup(database: Database) {
  const eventLog = createEventLog(database, [graphProjectionRule]);
  const sessions = await sessionsOf(database, SESSIONS);
  await drainOutbox(database, {
    aggregateTypes: ['graph_projection'],
    batchSize: 10_000,
    handle: async () => ({ outcome: 'processed' }),
  });
  return { eventLog, sessions };
}

async function lag(
  { engine, database }: BenchDatabase,
  intervalMs: number,
  seconds: number,
): Promise<BenchReport['rows'][number]> {
  const { eventLog, sessions } = await lagSetup(database);
  const committedAt = new Map<string, number>();
  const writtenAt = new Map<string, number>();
  let writtenInCycle: string[] = [];
  const graphFor = (transaction: Parameters<typeof createPostgresGraphStore>[0]): GraphStore => {
    const graph = createPostgresGraphStore(transaction);
    return {
      ...graph,
      upsertNode: async (node) => {
        if (node.label === 'Event') writtenInCycle.push(node.key);
        await graph.upsertNode(node);
      },
    };
  };
  const projector = createGraphProjector({
    database,
    graphFor,
    logger: silent,
    batchSize: BATCH_SIZE,
  });
  let appending = true;
  const appender = (async () => {
    for (let index = 0; appending; index += 1) {
      const session = sessions[index % SESSIONS]!;
      const outcome = await eventLog.append(session, [
        SESSION_EVENTS.chatMessage.create('user', { v: 1, text: `lag ${index}` }),
      ]);
      if (outcome.success) committedAt.set(`${session}#${outcome.lastSeq}`, performance.now());
      await sleep(APPEND_EVERY_MS);
    }
  })();
  // The poller's own rhythm: at once again after a full batch, otherwise after the interval.
  const until = performance.now() + seconds * 1000;
  for (;;) {
    writtenInCycle = [];
    const report = await projector.runCycle();
    const now = performance.now();
    for (const key of writtenInCycle) if (!writtenAt.has(key)) writtenAt.set(key, now);
    if (performance.now() >= until) {
      appending = false;
      await appender;
      if ([...committedAt.keys()].every((key) => writtenAt.has(key))) break;
    }
    if (report.processed < BATCH_SIZE) await sleep(performance.now() >= until ? 5 : intervalMs);
  }
  // The append's return is the client's first sight of the commit; a drain that committed before it is a lag of 0.
  const lags = [...committedAt].map(([key, committed]) =>
    Math.max(0, writtenAt.get(key)! - committed),
  );
  return {
    engine,
    case: `lag commit → graph write, poll every ${intervalMs} ms`,
    events: lags.length,
    events_per_s: '',
    p50_ms: round(percentile(lags, 50), 1),
    p99_ms: round(percentile(lags, 99), 1),
  };
}

/**
 * The lag when the projector runs as in production: started with the default poll as a fallback and woken by
 * every append's notification (`wakeOnAppends`). Each drain's commit is timed by wrapping the database's
 * `transaction`, so the figure is commit → commit as in the polled rows.
 */
async function wokenLag(
  { engine, database }: BenchDatabase,
  seconds: number,
): Promise<BenchReport['rows'][number]> {
  const { eventLog, sessions } = await lagSetup(database);
  const committedAt = new Map<string, number>();
  const writtenAt = new Map<string, number>();
  let writtenInTransaction: string[] = [];
  const timed: Database = {
    ...database,
    transaction: async (work) => {
      const result = await database.transaction(async (transaction) => {
        writtenInTransaction = [];
        return work(transaction);
      });
      const now = performance.now();
      for (const key of writtenInTransaction) if (!writtenAt.has(key)) writtenAt.set(key, now);
      return result;
    },
  };
  const graphFor = (transaction: Parameters<typeof createPostgresGraphStore>[0]): GraphStore => {
    const graph = createPostgresGraphStore(transaction);
    return {
      ...graph,
      upsertNode: async (node) => {
        if (node.label === 'Event') writtenInTransaction.push(node.key);
        await graph.upsertNode(node);
      },
    };
  };
  const projector = createGraphProjector({
    database: timed,
    graphFor,
    logger: silent,
    batchSize: BATCH_SIZE,
  });
  projector.start();
  const unlisten = await wakeOnAppends(database, [projector], silent);
  if (unlisten === null)
    throw new Error(`${engine} cannot LISTEN: the woken lag cannot be measured`);
  const until = performance.now() + seconds * 1000;
  for (let index = 0; performance.now() < until; index += 1) {
    const session = sessions[index % SESSIONS]!;
    const outcome = await eventLog.append(session, [
      SESSION_EVENTS.chatMessage.create('user', { v: 1, text: `woken ${index}` }),
    ]);
    if (outcome.success) committedAt.set(`${session}#${outcome.lastSeq}`, performance.now());
    await sleep(APPEND_EVERY_MS);
  }
  while (![...committedAt.keys()].every((key) => writtenAt.has(key))) await sleep(5);
  await unlisten();
  await projector.stop();
  const lags = [...committedAt].map(([key, committed]) =>
    Math.max(0, writtenAt.get(key)! - committed),
  );
  return {
    engine,
    case: 'lag commit → graph write, woken on NOTIFY (production: poll 2000 ms as fallback)',
    events: lags.length,
    events_per_s: '',
    p50_ms: round(percentile(lags, 50), 1),
    p99_ms: round(percentile(lags, 99), 1),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
