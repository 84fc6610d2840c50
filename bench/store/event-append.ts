import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate } from '../../src/store/migrations/migrate.ts';
import { openPgliteDatabase } from '../../src/store/pglite-database.ts';
import { openPostgresDatabase } from '../../src/store/postgres-database.ts';
import { createEventLog, createProject, createSession, type Database } from '../../src/store/index.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { round, summarise, timeInterleaved } from '../lib/latency.ts';

const SINGLE_APPENDS = 2000;
const BATCH_APPENDS = 400;
const BATCH_SIZE = 10;
const PAYLOAD = { v: 1, text: 'A bakery that delivers bread at dawn to the whole street, with a subscription.' };

/**
 * Event append against a raw single-row INSERT into a table of the same shape, on the same database in the
 * same run: PGlite on disk (the default) and the PostgreSQL server (DATABASE_URL, or the local one).
 */
export async function run(): Promise<BenchReport> {
  const rows: BenchReport['rows'] = [];
  const notes: string[] = [];
  const directory = mkdtempSync(join(tmpdir(), 'forja-bench-'));
  const pglite = await openPgliteDatabase({ dataDirectory: join(directory, 'pgdata') });
  rows.push(...(await measureEngine('pglite (disk)', pglite)));
  await pglite.close();
  rmSync(directory, { recursive: true, force: true });

  const serverUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const scratch = await createScratchDatabase(serverUrl).catch((error: unknown) => {
    notes.push(`PostgreSQL server not measured: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  });
  if (scratch) {
    const server = await openPostgresDatabase({ connectionString: scratch.url });
    rows.push(...(await measureEngine('postgres server', server)));
    await server.close();
    await scratch.drop();
  }
  notes.push('One client, sequential operations; p50/p99 per operation; items/s = events (or rows) per second.');
  notes.push('Goal: append p50 ≤ 2× raw INSERT p50 on the same database. Baselines insert into session_events itself with seqs computed by the client.');
  return { name: 'event-append', rows, notes };
}

async function measureEngine(engine: string, database: Database): Promise<BenchReport['rows']> {
  await migrate(database);
  const eventLog = createEventLog(database);
  const project = await createProject(database, { name: 'bench' });
  const [rawSession, appendSession, rawBatchSession, appendBatchSession] = await Promise.all([1, 2, 3, 4].map(() => createSession(database, { projectId: project.id })));
  const payload = JSON.stringify(PAYLOAD);
  const batch = Array.from({ length: BATCH_SIZE }, () => ({ type: 'chat.message', actor: 'user', payload: PAYLOAD }));
  let rawSeq = 1;
  let expectedSeq = 1;
  let rawBatchSeq = 1;

  // The baselines write the same table (same indexes, trigger and foreign key) with seqs computed here, so the
  // difference is exactly what the event log adds: seq assignment, the concurrency check, outbox and NOTIFY.
  const operations = {
    rawInsert: () => database.query(RAW_INSERT_SQL, [rawSession!.id, ++rawSeq, 'chat.message', 'user', payload]),
    append: async () => {
      const outcome = await eventLog.append(appendSession!.id, [{ type: 'chat.message', actor: 'user', payload: PAYLOAD }], { expectedSeq });
      if (!outcome.success) throw new Error(outcome.error.message);
      expectedSeq = outcome.lastSeq;
    },
    rawBatchInsert: () => {
      const first = rawBatchSeq + 1;
      rawBatchSeq += BATCH_SIZE;
      return database.query(RAW_BATCH_SQL, [rawBatchSession!.id, first, BATCH_SIZE, payload]);
    },
    appendBatch: () => eventLog.append(appendBatchSession!.id, batch),
  };
  // Interleaved, so that noise from the rest of the machine falls on baseline and subject alike.
  const durations = await timeInterleaved(operations, { rawInsert: SINGLE_APPENDS, append: SINGLE_APPENDS, rawBatchInsert: BATCH_APPENDS, appendBatch: BATCH_APPENDS });

  const row = (name: string, durationsMs: number[], perOperation: number, baselineMs: number) => {
    const summary = summarise(durationsMs, perOperation);
    return { engine, case: name, ...summary, p50_vs_baseline: round(summary.p50_ms / baselineMs, 2) };
  };
  const rawP50 = summarise(durations.rawInsert).p50_ms;
  const rawBatchP50 = summarise(durations.rawBatchInsert).p50_ms;
  return [
    row('raw single-row INSERT (baseline)', durations.rawInsert, 1, rawP50),
    row('append 1 event (expectedSeq)', durations.append, 1, rawP50),
    row(`raw ${BATCH_SIZE}-row INSERT (batch baseline)`, durations.rawBatchInsert, BATCH_SIZE, rawBatchP50),
    row(`append ${BATCH_SIZE}-event batch`, durations.appendBatch, BATCH_SIZE, rawBatchP50),
  ];
}

const RAW_INSERT_SQL = 'insert into session_events (id, session_id, seq, type, actor, payload) values (gen_random_uuid(), $1, $2, $3, $4, $5::jsonb)';
const RAW_BATCH_SQL = `insert into session_events (id, session_id, seq, type, actor, payload)
  select gen_random_uuid(), $1, $2 + offset_in_batch, 'chat.message', 'user', $4::jsonb from generate_series(0, $3 - 1) as offset_in_batch`;

async function createScratchDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `forja_bench_${process.pid}_${Date.now()}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
