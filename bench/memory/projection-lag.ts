/**
 * Benchmark (ADR 0427): outbox → projection lag on a real `forja serve`, started as a user starts it
 * (`node bin/forja.ts serve`), beside the same command from the code before ADR 0427 (`git archive` of
 * BASELINE_REVISION), both running at once and sent messages in turn. Each message is what the web UI does:
 * a new session, its event stream, Criativo started, a message, its answer streamed to the end (a local mock
 * of an OpenAI-format model). The lag of an outbox row is measured inside the database, from the commit of the
 * append that wrote it to the commit of the drain that processed it: a deferred trigger installed by this
 * benchmark records `clock_timestamp()` at both commits (`bench_outbox_commits`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openAiStream } from '../../src/gateway/providers/testing/openai-wire.ts';
import type { StreamStep } from '../../src/gateway/providers/testing/sse-test-server-types.ts';
import { startOpenAiTestServer } from '../../src/gateway/providers/testing/start-provider-test-servers.ts';
import { migrate } from '../../src/store/migrations/migrate.ts';
import { openPgliteDatabase } from '../../src/store/pglite-database.ts';
import { openPostgresDatabase } from '../../src/store/postgres-database.ts';
import type { Database } from '../../src/store/index.ts';
import { readServerSentEvents } from '../../src/testing/read-server-sent-events.ts';
import { baselineTree } from '../lib/baseline-tree.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { percentile, round } from '../lib/latency.ts';

/** The commit before ADR 0427: the memory workers on the message path's pool, PGlite's worker in arrival order. */
const BASELINE_REVISION = process.env.FORJA_BENCH_BASELINE ?? 'eea1b76';
const MESSAGES = 40;
const WARMUP = 4;
const TOKENS = 40;
const PACE_MS = 2;
const TODAY = fileURLToPath(new URL('../../', import.meta.url));

const TRIGGER_SQL = `
  create table bench_outbox_commits (
    outbox_id bigint not null, aggregate_type text not null, kind text not null, at timestamptz not null,
    began timestamptz);
  create function bench_outbox_commit() returns trigger language plpgsql as $$
  begin
    if tg_op = 'INSERT' then
      insert into bench_outbox_commits values (new.id, new.aggregate_type, 'created', clock_timestamp(), null);
    elsif new.processed_at is not null and old.processed_at is null then
      insert into bench_outbox_commits
        values (new.id, new.aggregate_type, 'processed', clock_timestamp(), new.processed_at);
    end if;
    return null;
  end $$;
  create constraint trigger bench_outbox_commit after insert or update on outbox
    deferrable initially deferred for each row execute function bench_outbox_commit();`;

const LAGS_SQL = `
  select c.aggregate_type, extract(epoch from (p.at - c.at)) * 1000 as lag_ms,
    extract(epoch from (p.began - c.at)) * 1000 as wait_ms
  from bench_outbox_commits c join bench_outbox_commits p on p.outbox_id = c.outbox_id and p.kind = 'processed'
  where c.kind = 'created' order by c.outbox_id`;

interface Storage {
  env: NodeJS.ProcessEnv;
  /** FORJA_DATA_DIR: PGlite's database is in it (`pgdata`). */
  dataDirectory: string;
  /** Every outbox row's lag, in ms, by aggregate type (read once the process has stopped). */
  lags(): Promise<Lag[]>;
  dispose(): Promise<void>;
}

async function serverStorage(): Promise<Storage | { unavailable: string }> {
  const serverUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const name = `forja_bench_lag_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  try {
    await admin(`create database ${name}`);
  } catch (error) {
    return { unavailable: error instanceof Error ? error.message : String(error) };
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openPostgresDatabase({ connectionString: url.toString() });
  await migrate(database);
  await database.execute(TRIGGER_SQL);
  const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-bench-lag-data-'));
  return {
    env: { DATABASE_URL: url.toString() },
    dataDirectory,
    lags: () => readLags(database),
    dispose: async () => {
      await database.close();
      await admin(`drop database if exists ${name} with (force)`);
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

async function pgliteStorage(): Promise<Storage> {
  const directory = mkdtempSync(join(tmpdir(), 'forja-bench-lag-'));
  const open = () => openPgliteDatabase({ dataDirectory: join(directory, 'pgdata') });
  const database = await open();
  await migrate(database);
  await database.execute(TRIGGER_SQL);
  await database.close();
  return {
    env: { DATABASE_URL: '' },
    dataDirectory: directory,
    lags: async () => {
      const reopened = await open();
      try {
        return await readLags(reopened);
      } finally {
        await reopened.close();
      }
    },
    dispose: async () => rmSync(directory, { recursive: true, force: true }),
  };
}

/** An outbox row's lag, and of it the wait before the drain's transaction began (its `now()`). */
interface Lag {
  aggregate_type: string;
  lag_ms: number;
  wait_ms: number;
}

async function readLags(database: Database): Promise<Lag[]> {
  return (await database.query<Lag>(LAGS_SQL)).rows;
}

interface Serving {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

function serve(tree: string, dataDirectory: string, env: NodeJS.ProcessEnv): Promise<Serving> {
  const child = spawn(process.execPath, [join(tree, 'bin/forja.ts'), 'serve'], {
    env: { ...process.env, PORT: '0', FORJA_DATA_DIR: dataDirectory, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"url":"(http:[^"]+)"/.exec(output);
      if (match)
        resolve({
          child,
          url: match[1]!,
          stop: async () => {
            child.kill('SIGTERM');
            await exited;
          },
        });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then(() => reject(new Error(`forja serve exited before listening: ${output}`)));
  });
}

/** One message as the web UI sends it; resolves once its answer is streamed to the end. */
async function message(url: string, projectId: string): Promise<void> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  const session = await post(`/api/projects/${projectId}/sessions`, {});
  const stream = readServerSentEvents(await fetch(`${url}/api/sessions/${session.id}/stream`));
  await stream.next();
  await post(`/api/sessions/${session.id}/agents/criativo/start`, {});
  await stream.next(30_000);
  await post(`/api/sessions/${session.id}/messages`, { text: 'Plan the bakery subscription.' });
  for (let event = await stream.next(30_000); ; event = await stream.next(30_000))
    if (event.event === 'agent.done') break;
  await stream.close();
}

interface Layout {
  name: string;
  tree: string;
}

async function measureEngine(
  engine: string,
  storageOf: () => Promise<Storage | { unavailable: string }>,
  layouts: Layout[],
  modelEnv: NodeJS.ProcessEnv,
): Promise<BenchReport['rows'] | string> {
  const running: Array<{ layout: Layout; storage: Storage; serving: Serving }> = [];
  try {
    for (const layout of layouts) {
      const storage = await storageOf();
      if ('unavailable' in storage) return storage.unavailable;
      const serving = await serve(layout.tree, storage.dataDirectory, {
        ...modelEnv,
        ...storage.env,
      });
      running.push({ layout, storage, serving });
    }
    const projects = await Promise.all(
      running.map(async ({ serving }) => {
        const response = await fetch(`${serving.url}/api/projects`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'bench' }),
        });
        return ((await response.json()) as { id: string }).id;
      }),
    );
    // In turn: one message to each layout, the order swapped every round.
    for (let index = 0; index < WARMUP + MESSAGES; index += 1) {
      const order = index % 2 === 0 ? running : [...running].reverse();
      for (const entry of order)
        await message(entry.serving.url, projects[running.indexOf(entry)]!);
    }
    // Let the last drains finish.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const rows: BenchReport['rows'] = [];
    for (const entry of running) {
      await entry.serving.stop();
      const lags = await entry.storage.lags();
      for (const aggregate of ['graph_projection', 'rag_index']) {
        const all = lags.filter((lag) => lag.aggregate_type === aggregate);
        // The warm-up messages' rows come first (rows in id order, one message at a time).
        const measured = all.slice(Math.round((all.length * WARMUP) / (WARMUP + MESSAGES)));
        const values = measured.map((lag) => Number(lag.lag_ms));
        const waits = measured.map((lag) => Number(lag.wait_ms));
        rows.push({
          engine,
          layout: entry.layout.name,
          outbox: aggregate,
          rows: values.length,
          lag_p50_ms: round(percentile(values, 50), 2),
          lag_p90_ms: round(percentile(values, 90), 2),
          lag_p99_ms: round(percentile(values, 99), 2),
          lag_max_ms: round(Math.max(...values), 2),
          wait_p50_ms: round(percentile(waits, 50), 2),
          wait_p99_ms: round(percentile(waits, 99), 2),
        });
      }
    }
    return rows;
  } finally {
    for (const entry of running) {
      await entry.serving.stop();
      await entry.storage.dispose();
    }
  }
}

export async function run(): Promise<BenchReport> {
  const mock = await startOpenAiTestServer();
  const words = 'The bakery opens at dawn and delivers bread to the whole street'.split(' ');
  const answer = openAiStream({
    textDeltas: Array.from({ length: TOKENS }, (_, index) => `${words[index % words.length]} `),
    usage: { inputTokens: 200, outputTokens: TOKENS },
  });
  if (answer.kind !== 'stream') throw new Error('expected a stream');
  const paced: StreamStep[] = answer.steps.flatMap((step) => [{ delayMs: PACE_MS }, step]);
  mock.respondWith(() => ({ kind: 'stream', steps: paced }));
  const modelEnv = {
    FORJA_MODEL: 'openai:bench-model',
    OPENAI_BASE_URL: mock.baseUrl,
    OPENAI_API_KEY: 'bench',
  };
  const layouts: Layout[] = [
    { name: 'today (ADR 0427)', tree: TODAY },
    { name: `before ADR 0427 (${BASELINE_REVISION})`, tree: baselineTree(BASELINE_REVISION) },
  ];
  const rows: BenchReport['rows'] = [];
  const notes: string[] = [];
  try {
    for (const [engine, storage] of [
      ['postgres server', serverStorage],
      ['pglite (disk)', pgliteStorage],
    ] as const) {
      const measured = await measureEngine(engine, storage, layouts, modelEnv);
      if (typeof measured === 'string') notes.push(`${engine} not measured: ${measured}`);
      else rows.push(...measured);
    }
  } finally {
    await mock.close();
  }
  notes.push(
    `${MESSAGES} messages per layout after ${WARMUP} warm-up, each in a new session with Criativo started and its ${TOKENS}-delta answer (paced ${PACE_MS} ms) streamed to the end; the two layouts' \`forja serve\` processes run at once, sent messages in turn (the order swapped every round).`,
    'lag: commit of the append that wrote the outbox row → commit of the drain that marked it processed, both read from clock_timestamp() in deferred triggers; every row of the measured messages (chat.message, agent.activated, agent.response, …).',
    "wait: of the lag, the part before the drain's transaction began (its now(), the row's processed_at): the wake-up path; the rest is the drain itself.",
    'Goal: p50 ≤ 8 ms with a bounded p99 (graphile-worker, measured the same way elsewhere: 7.3–7.7 ms p50).',
  );
  return { name: 'projection-lag', rows, notes };
}
