import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createSessionEventLog } from '../../src/composition.ts';
import { migrate } from '../../src/store/migrations/migrate.ts';
import {
  createEventLog,
  createEventNotifications,
  createInProcessLaneLeases,
  createPostgresLaneLeases,
  createProject,
  createSession,
  type Database,
  type EventLog,
  type EventNotifications,
  type LaneLeases,
} from '../../src/store/index.ts';
import { openBenchPglite, openBenchServer } from '../lib/bench-databases.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { round, summarise, timeInterleaved } from '../lib/latency.ts';
import { SESSION_EVENTS } from '../../src/domain/conversation/index.ts';

const SINGLE_APPENDS = 2000;
const BATCH_APPENDS = 400;
const BATCH_SIZE = 10;
const WRITERS = [1, 4, 16];
const CONCURRENT_EVENTS = 1600;
const CONCURRENT_CHUNKS = 4;
const PAYLOAD: { v: 1; text: string } = {
  v: 1,
  text: 'A bakery that delivers bread at dawn to the whole street, with a subscription.',
};

/**
 * Event append against a raw single-row INSERT into the same table, on the same database in the same run: PGlite
 * on disk (the default; on its worker thread, and on the main thread as before ADR 0215) and the PostgreSQL server
 * (DATABASE_URL, or the local one). The append is the event log `forja serve` builds (`createSessionEventLog`,
 * ADR 0429): a chat message gets its graph outbox row in the same statement, as in production.
 */
export async function run(): Promise<BenchReport> {
  const rows: BenchReport['rows'] = [];
  const notes: string[] = [];
  // PGlite on its worker thread (production, ADR 0215), then on the main thread as before: what the thread costs.
  for (const thread of ['worker', 'main'] as const) {
    const embedded = await openBenchPglite({ thread });
    rows.push(...(await measureEngine(embedded.engine, embedded.database)));
    rows.push(...(await measureConcurrent(embedded.engine, embedded.database)));
    await embedded.dispose();
  }
  const server = await openBenchServer({ maxConnections: Math.max(...WRITERS) + 2 });
  if ('unavailable' in server) notes.push(`PostgreSQL server not measured: ${server.unavailable}`);
  else {
    rows.push(...(await measureEngine(server.engine, server.database)));
    rows.push(...(await measureConcurrent(server.engine, server.database)));
    await server.dispose();
  }
  notes.push(
    'The append is the event log forja serve builds (createSessionEventLog in src/composition.ts): each chat.message gets its graph_projection outbox row in the same statement, the turn-end rule, the in-memory delivery to this process\'s streams; on PGlite its lane leases are in memory (no fence), as in production. The row "no outbox rules" is the event log this benchmark measured before ADR 0429.',
  );
  notes.push(
    'Single rows: one client, sequential operations, interleaved; p50/p99 per operation; items/s = events (or rows) per second.',
  );
  notes.push(
    `Concurrent rows: W writers, each appending one event at a time (${CONCURRENT_EVENTS} events per case), on W sessions or on one; items/s = events over wall time; cases interleaved in ${CONCURRENT_CHUNKS} chunks. throughput_vs_baseline: against the pgbench-style raw single-row INSERT by the same writers (seqs from the client), which cannot batch. On one session the appends waiting in the session's queue commit together, one statement and one commit per batch (ADR 0248); throughput_vs_batched_insert compares them with the fair baseline, the same queue writing what waited as one plain multi-row INSERT. With 1 writer nothing waits, so that baseline is the raw INSERT. PGlite has one connection, so its writers queue.`,
  );
  notes.push(
    "Fenced lane append: the production path of a turn's appends on a server (ADR 0170, 0205) — the same log behind the PostgreSQL lane leases, each writer holding its lane's lease (W sessions: one lane each; one session: W lanes of it); each append checks the lease in its (batch's) statement. throughput_vs_unfenced compares it with the plain append of the same run. Embedded PGlite runs with in-process leases, whose appends are not fenced at all; its fenced rows use the PostgreSQL adapter, to show what the check costs there.",
  );
  notes.push(
    'NOTIFY always after the commit (server only): the plain append with ADR 0263 off, every batch notifying in a statement after its commit (ADR 0180) even when it is the only one under way: the A/B of that decision in the same run.',
  );
  notes.push(
    'Goal: append p50 ≤ 2× raw INSERT p50 on the same database. Baselines insert into session_events itself (same indexes, trigger, foreign key), no outbox row, with seqs computed by the client.',
  );
  return { name: 'event-append', rows, notes };
}

/** The production event log over `database` with this process's lane leases in memory (appends unfenced). */
async function productionLog(database: Database): Promise<{
  eventLog: EventLog;
  notifications: EventNotifications;
}> {
  const notifications = await createEventNotifications(database);
  const leases = createInProcessLaneLeases(randomUUID());
  return { eventLog: createSessionEventLog(database, leases, notifications), notifications };
}

async function measureEngine(engine: string, database: Database): Promise<BenchReport['rows']> {
  await migrate(database);
  const { eventLog, notifications } = await productionLog(database);
  // What this benchmark appended with before ADR 0429: the event log without production's outbox rules.
  const bareLog = createEventLog(database);
  const project = await createProject(database, { name: 'bench' });
  const [rawSession, appendSession, bareSession, rawBatchSession, appendBatchSession] =
    await Promise.all(
      [1, 2, 3, 4, 5].map(() => createSession(database, { projectId: project.id })),
    );
  const payload = JSON.stringify(PAYLOAD);
  const batch = Array.from({ length: BATCH_SIZE }, () =>
    SESSION_EVENTS.chatMessage.create('user', PAYLOAD),
  );
  let rawSeq = 1;
  let expectedSeq = 1;
  let bareExpectedSeq = 1;
  let rawBatchSeq = 1;

  // The baselines write the same table (same indexes, trigger and foreign key) with seqs computed here, so the
  // difference is exactly what the event log adds: seq assignment, the concurrency check, outbox and NOTIFY.
  const operations = {
    rawInsert: () =>
      database.query(RAW_INSERT_SQL, [rawSession!.id, ++rawSeq, 'chat.message', 'user', payload]),
    append: async () => {
      const outcome = await eventLog.append(
        appendSession!.id,
        [SESSION_EVENTS.chatMessage.create('user', PAYLOAD)],
        { expectedSeq },
      );
      if (!outcome.success) throw new Error(outcome.error.message);
      expectedSeq = outcome.lastSeq;
    },
    bareAppend: async () => {
      const outcome = await bareLog.append(
        bareSession!.id,
        [SESSION_EVENTS.chatMessage.create('user', PAYLOAD)],
        { expectedSeq: bareExpectedSeq },
      );
      if (!outcome.success) throw new Error(outcome.error.message);
      bareExpectedSeq = outcome.lastSeq;
    },
    rawBatchInsert: () => {
      const first = rawBatchSeq + 1;
      rawBatchSeq += BATCH_SIZE;
      return database.query(RAW_BATCH_SQL, [rawBatchSession!.id, first, BATCH_SIZE, payload]);
    },
    appendBatch: () => eventLog.append(appendBatchSession!.id, batch),
  };
  // Interleaved, so that noise from the rest of the machine falls on baseline and subject alike.
  const durations = await timeInterleaved(operations, {
    rawInsert: SINGLE_APPENDS,
    append: SINGLE_APPENDS,
    bareAppend: SINGLE_APPENDS,
    rawBatchInsert: BATCH_APPENDS,
    appendBatch: BATCH_APPENDS,
  });

  const row = (name: string, durationsMs: number[], perOperation: number, baselineMs: number) => {
    const summary = summarise(durationsMs, perOperation);
    return {
      engine,
      case: name,
      ...summary,
      p50_vs_baseline: round(summary.p50_ms / baselineMs, 2),
    };
  };
  const rawP50 = summarise(durations.rawInsert).p50_ms;
  const rawBatchP50 = summarise(durations.rawBatchInsert).p50_ms;
  await notifications.close();
  return [
    row('raw single-row INSERT (baseline)', durations.rawInsert, 1, rawP50),
    row('append 1 event (expectedSeq)', durations.append, 1, rawP50),
    row(
      'append 1 event, no outbox rules (this row before ADR 0429)',
      durations.bareAppend,
      1,
      rawP50,
    ),
    row(
      `raw ${BATCH_SIZE}-row INSERT (batch baseline)`,
      durations.rawBatchInsert,
      BATCH_SIZE,
      rawBatchP50,
    ),
    row(`append ${BATCH_SIZE}-event batch`, durations.appendBatch, BATCH_SIZE, rawBatchP50),
  ];
}

const RAW_INSERT_SQL =
  'insert into session_events (id, session_id, seq, type, actor, payload) values (gen_random_uuid(), $1, $2, $3, $4, $5::jsonb)';
const RAW_BATCH_SQL = `insert into session_events (id, session_id, seq, type, actor, payload)
  select gen_random_uuid(), $1, $2 + offset_in_batch, 'chat.message', 'user', $4::jsonb from generate_series(0, $3 - 1) as offset_in_batch`;

/**
 * W concurrent writers, each one event per operation, on W sessions and on one session, beside raw INSERTs by
 * the same number of writers — one row per INSERT, and on one session also the fair baseline of group commit: one
 * multi-row INSERT of the rows that waited; the cases run interleaved in chunks so that machine noise falls on all.
 */
async function measureConcurrent(engine: string, database: Database): Promise<BenchReport['rows']> {
  const { eventLog, notifications } = await productionLog(database);
  // A lane's appends as production makes them on a server (ADR 0170, 0205): the same log behind the PostgreSQL
  // lane leases, each writer's work holding its lane's lease, every append checking it.
  const owner = randomUUID();
  await database.query('insert into forja_processes (id, pid, host) values ($1, $2, $3)', [
    owner,
    process.pid,
    'bench',
  ]);
  const leases = createPostgresLaneLeases(database, { owner, leaseMs: 30_000 });
  const fencedLog = createSessionEventLog(database, leases, notifications);
  // The server's appends as they were before ADR 0263: the NOTIFY always after the commit.
  const afterCommitLog = createSessionEventLog(
    database,
    createInProcessLaneLeases(owner),
    notifications,
    { notifyWhenAlone: false },
  );
  const project = await createProject(database, { name: 'bench-concurrent' });
  const payload = JSON.stringify(PAYLOAD);
  const rows: BenchReport['rows'] = [];
  for (const writers of WRITERS) {
    const newSessions = (count: number) =>
      Promise.all(
        Array.from({ length: count }, () => createSession(database, { projectId: project.id })),
      );
    const rawSessions = await newSessions(writers);
    const appendSessions = await newSessions(writers);
    const afterCommitSessions = await newSessions(writers);
    const fencedSessions = await newSessions(writers);
    const [rawOne, batchedOne, appendOne, fencedOne] = await newSessions(4);
    // W sessions: one lane each; one session: W lanes of it (agents running side by side).
    const fencedLanes = await holdLanes(leases, [
      ...fencedSessions.map((session) => ({ sessionId: session.id, lane: 'dev:bench' })),
      ...fencedSessions.map((_, writer) => ({ sessionId: fencedOne!.id, lane: `dev:m${writer}` })),
    ]);
    const chatMessage = () => [SESSION_EVENTS.chatMessage.create('user', PAYLOAD)];
    const rawSeqs = rawSessions.map(() => 1);
    let rawOneSeq = 1;
    const insertWhatWaited = batchingInsert(database, batchedOne!.id, payload);
    const cases: Record<string, (writer: number) => Promise<unknown>> = {
      [RAW_W]: (writer) =>
        database.query(RAW_INSERT_SQL, [
          rawSessions[writer]!.id,
          ++rawSeqs[writer]!,
          'chat.message',
          'user',
          payload,
        ]),
      [APPEND_W]: (writer) => eventLog.append(appendSessions[writer]!.id, chatMessage()),
      ...(database.kind === 'postgres'
        ? {
            'append, W sessions, NOTIFY always after the commit (before ADR 0263)': (
              writer: number,
            ) => afterCommitLog.append(afterCommitSessions[writer]!.id, chatMessage()),
          }
        : {}),
      'fenced lane append, W sessions': (writer) =>
        fencedLanes[writer]!.run(() => fencedLog.append(fencedSessions[writer]!.id, chatMessage())),
      [RAW_ONE]: () =>
        database.query(RAW_INSERT_SQL, [rawOne!.id, ++rawOneSeq, 'chat.message', 'user', payload]),
      [BATCHED_ONE]: () => insertWhatWaited(),
      [APPEND_ONE]: () => eventLog.append(appendOne!.id, chatMessage()),
      'fenced lane append, one session (W lanes)': (writer) =>
        fencedLanes[writers + writer]!.run(() => fencedLog.append(fencedOne!.id, chatMessage())),
    };
    const durations: Record<string, number[]> = Object.fromEntries(
      Object.keys(cases).map((name) => [name, []]),
    );
    const wallMs: Record<string, number> = Object.fromEntries(
      Object.keys(cases).map((name) => [name, 0]),
    );
    const perWriterPerChunk = Math.ceil(CONCURRENT_EVENTS / writers / CONCURRENT_CHUNKS);
    for (let chunk = 0; chunk < CONCURRENT_CHUNKS; chunk += 1) {
      for (const [name, operation] of Object.entries(cases)) {
        const start = performance.now();
        await Promise.all(
          Array.from({ length: writers }, async (_, writer) => {
            for (let index = 0; index < perWriterPerChunk; index += 1) {
              const began = performance.now();
              await operation(writer);
              durations[name]!.push(performance.now() - began);
            }
          }),
        );
        wallMs[name]! += performance.now() - start;
      }
    }
    await Promise.all(fencedLanes.map((lane) => lane.release()));
    rows.push(...concurrentRows(engine, writers, durations, wallMs));
  }
  await leases.close();
  await notifications.close();
  return rows;
}

/** The rows of one writer count: each case's latency and throughput beside its baselines. */
function concurrentRows(
  engine: string,
  writers: number,
  durations: Record<string, number[]>,
  wallMs: Record<string, number>,
): BenchReport['rows'] {
  const throughput = (name: string) => (durations[name]!.length * 1000) / wallMs[name]!;
  return Object.keys(durations).map((name) => {
    const oneSession = name.includes('one session');
    const latency = summarise(durations[name]!);
    return {
      engine,
      case: `${writers} writers: ${name.replace('W sessions', `${writers} sessions`)}`,
      operations: latency.operations,
      p50_ms: latency.p50_ms,
      p99_ms: latency.p99_ms,
      items_per_s: Math.round(throughput(name)),
      throughput_vs_baseline: round(throughput(name) / throughput(oneSession ? RAW_ONE : RAW_W), 2),
      ...(oneSession && name !== RAW_ONE
        ? { throughput_vs_batched_insert: round(throughput(name) / throughput(BATCHED_ONE), 2) }
        : {}),
      ...(name.startsWith('fenced')
        ? {
            throughput_vs_unfenced: round(
              throughput(name) / throughput(oneSession ? APPEND_ONE : APPEND_W),
              2,
            ),
          }
        : {}),
    };
  });
}

const RAW_W = 'raw INSERT, W sessions (baseline)';
const APPEND_W = 'append, W sessions';
const RAW_ONE = 'raw INSERT, one session (baseline)';
const BATCHED_ONE = 'multi-row INSERT of what waited, one session (fair baseline)';
const APPEND_ONE = 'append, one session (group commit)';

/**
 * Group commit's fair baseline: plain INSERTs into one session with the same queue as the event log (ADR 0248) —
 * a row asked for while none is being written goes at once; those asked meanwhile wait and go together, one
 * multi-row INSERT (`values (…), (…)`, each row its own parameters, seqs from the client) when it is done.
 */
function batchingInsert(database: Database, sessionId: string, payload: string) {
  const waiting: Array<{ done: () => void; failed: (error: unknown) => void }> = [];
  let seq = 1;
  let writing = false;
  const writeWhatWaited = async () => {
    writing = true;
    while (waiting.length > 0) {
      const batch = waiting.splice(0, MAX_BATCH_ROWS);
      const parameters: unknown[] = [sessionId];
      const values = batch.map(() => {
        parameters.push((seq += 1), payload);
        const at = parameters.length;
        return `(gen_random_uuid(), $1, $${at - 1}, 'chat.message', 'user', $${at}::jsonb)`;
      });
      try {
        await database.query(
          `insert into session_events (id, session_id, seq, type, actor, payload) values ${values.join(', ')}`,
          parameters,
        );
        for (const row of batch) row.done();
      } catch (error) {
        for (const row of batch) row.failed(error);
      }
    }
    writing = false;
  };
  return () =>
    new Promise<void>((done, failed) => {
      waiting.push({ done, failed });
      if (!writing) void writeWhatWaited();
    });
}

/** As many as the event log puts in one batch (`MAX_BATCH_APPENDS`). */
const MAX_BATCH_ROWS = 100;

/**
 * Takes each lane's lease and keeps it until `release`; `run` runs a function inside that hold, so the lease is
 * the one `fenceAppends` finds (`leases.current`), exactly as in a turn.
 */
async function holdLanes(
  leases: LaneLeases,
  lanes: Array<{ sessionId: string; lane: string }>,
): Promise<Array<{ run: <T>(work: () => T) => T; release: () => Promise<void> }>> {
  return Promise.all(
    lanes.map(
      ({ sessionId, lane }) =>
        new Promise<{ run: <T>(work: () => T) => T; release: () => Promise<void> }>(
          (resolve, reject) => {
            let end!: () => void;
            const ended = new Promise<void>((done) => (end = done));
            const holding: Promise<void> = leases.hold(sessionId, lane, async () => {
              const inHold = AsyncLocalStorage.snapshot();
              resolve({
                run: (work) => inHold(work),
                release: async () => {
                  end();
                  await holding;
                },
              });
              await ended;
            });
            holding.catch(reject);
          },
        ),
    ),
  );
}
