/**
 * Benchmark: the whole HTTP path of a message. A browser-like client holds an SSE stream open, POSTs a message,
 * and times the first `agent.delta` on its stream; beside it, interleaved, a bare client reads the same paced
 * OpenAI-format answer from the same local mock server and times its first non-empty delta. The provider runs
 * with the retry wrapper production uses (built from FORJA_MODEL like `forja serve`), the memory workers drain
 * as `forja serve` runs them. PGlite on disk on its worker thread, as `forja serve` opens it, and the PostgreSQL
 * server; each beside the same engine from the code before ADR 0427 (`git archive` of BASELINE_REVISION: the
 * memory workers on the message path's pool, PGlite's worker answering in arrival order).
 *
 * Every statement sent through the database port is counted, and told by who sent it: the message path (the
 * POST's own async context: its handler, the turn it starts), the memory workers (their database,
 * `Database.background`), or anything else (streams' reads, heartbeats, the commit notifier).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { createForja } from '../../src/composition.ts';
import { loadConfig } from '../../src/config/config.ts';
import { listen } from '../../src/http/listen.ts';
import { openAiStream } from '../../src/gateway/providers/testing/openai-wire.ts';
import type { StreamStep } from '../../src/gateway/providers/testing/sse-test-server-types.ts';
import { startOpenAiTestServer } from '../../src/gateway/providers/testing/start-provider-test-servers.ts';
import { readServerSentEvents } from '../../src/testing/read-server-sent-events.ts';
import { baselineTree } from '../lib/baseline-tree.ts';
import { openBenchPglite, openBenchServer, type BenchDatabase } from '../lib/bench-databases.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { percentile, round, summarise } from '../lib/latency.ts';
import type { Database, Queryable } from '../../src/store/index.ts';

const MESSAGES = Number(process.env.FORJA_BENCH_MESSAGES ?? 60);
const WARMUP = Math.min(8, MESSAGES);
const TOKENS = 40;
const PACE_MS = 2;
/** The commit before ADR 0427. */
const BASELINE_REVISION = process.env.FORJA_BENCH_BASELINE ?? 'eea1b76';

type Issuer = 'message' | 'memory' | 'other';
/** Set around the POST of the measured message: what runs in its async context is the message path. */
const messagePath = new AsyncLocalStorage<true>();

export async function run(): Promise<BenchReport> {
  const mock = await startOpenAiTestServer();
  // A paced answer of realistic token sizes: ~4 characters a delta, one every PACE_MS, not one burst.
  const words =
    'The bakery opens at dawn and delivers bread to the whole street with a weekly subscription plan'.split(
      ' ',
    );
  const answer = openAiStream({
    textDeltas: Array.from({ length: TOKENS }, (_, index) => `${words[index % words.length]} `),
    usage: { inputTokens: 200, outputTokens: TOKENS },
  });
  if (answer.kind !== 'stream') throw new Error('expected a stream');
  const paced: StreamStep[] = answer.steps.flatMap((step) => [{ delayMs: PACE_MS }, step]);
  mock.respondWith(() => ({ kind: 'stream', steps: paced }));
  const rows: BenchReport['rows'] = [];
  const notes: string[] = [];
  const before = `before ADR 0427 (${BASELINE_REVISION})`;
  const baseline = baselineTree(BASELINE_REVISION);
  const earlierWorker = (await import(join(baseline, 'src/store/pglite-worker-database.ts'))) as {
    openPgliteWorkerDatabase: typeof import('../../src/store/pglite-worker-database.ts').openPgliteWorkerDatabase;
  };
  const earlierServer = (await import(join(baseline, 'src/store/postgres-database.ts'))) as {
    openPostgresDatabase: typeof import('../../src/store/postgres-database.ts').openPostgresDatabase;
  };
  try {
    // Today and before, one after the other per engine, twice (the order swapped): the machine's load drifts.
    for (const round of [0, 1]) {
      const pglite = [
        async () => measureEngine(await openBenchPglite(), mock.baseUrl),
        async () =>
          measureEngine(
            await openBenchPglite({ openWorker: earlierWorker.openPgliteWorkerDatabase }),
            mock.baseUrl,
            before,
          ),
      ];
      for (const measure of round === 0 ? pglite : pglite.reverse())
        rows.push(...(await measure()));
      const server = [
        () => openBenchServer(),
        () => openBenchServer({ open: earlierServer.openPostgresDatabase }),
      ];
      for (const [index, open] of (round === 0 ? server : server.reverse()).entries()) {
        const opened = await open();
        if ('unavailable' in opened) {
          notes.push(`PostgreSQL server not measured: ${opened.unavailable}`);
          break;
        }
        const earlier = (round === 0) === (index === 1);
        rows.push(...(await measureEngine(opened, mock.baseUrl, earlier ? before : undefined)));
      }
    }
  } finally {
    await mock.close();
  }
  notes.push(
    `${MESSAGES} messages per engine after ${WARMUP} warm-up, each in a new session, interleaved with the bare client; ${TOKENS} deltas paced ${PACE_MS} ms apart (the first ${PACE_MS * 2} ms after the request).`,
  );
  notes.push(
    "statements: every statement sent through the database port from the POST until agent.done, a transaction's begin and commit counted as two; p50 per message, split by who sent it: message (the POST's async context: its handler and the turn it starts), memory (the memory workers' database), other (streams' reads, the commit notifier, heartbeats). *_to_first_delta: those sent before the first delta. Goal: ≤ 6 on the message path.",
    'FORJA_BENCH_TRACE=1 prints every statement of the last message of each engine, with its time since the POST and its issuer.',
    `Each engine twice, today's and the code before ADR 0427 (${BASELINE_REVISION}) one after the other, in the opposite order the second time; each row is one run of ${MESSAGES} messages.`,
  );
  notes.push(
    'Forja: POST /api/sessions/:id/messages → first agent.delta on an SSE stream opened before, over real HTTP on 127.0.0.1. Goal: p50 ≤ 2× the bare client.',
  );
  return { name: 'message-to-first-delta', rows, notes };
}

async function measureEngine(
  bench: BenchDatabase,
  baseUrl: string,
  layout = 'today (ADR 0427)',
): Promise<BenchReport['rows']> {
  const engine = bench.engine;
  const loaded = loadConfig({});
  if (!loaded.ok) throw new Error(loaded.error.message);
  const env = {
    FORJA_MODEL: 'openai:bench-model',
    OPENAI_BASE_URL: baseUrl,
    OPENAI_API_KEY: 'bench',
  };
  const counted = countingQueries(bench.database);
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    env,
    database: counted.database,
    memory: { workers: true },
  });
  // The POST of a message and all it starts run in the message path's context.
  const fetchApp: typeof forja.app.fetch = (request, ...rest) =>
    request.method === 'POST' && request.url.endsWith('/messages')
      ? messagePath.run(true, () => forja.app.fetch(request, ...rest))
      : forja.app.fetch(request, ...rest);
  const server = await listen(fetchApp, { host: '127.0.0.1', port: 0 });
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  const project = await post('/api/projects', { name: 'bench' });
  const throughForja: number[] = [];
  const bare: number[] = [];
  const queries: MessageQueries[] = [];
  try {
    for (let index = 0; index < WARMUP + MESSAGES; index += 1) {
      const forjaMs = await messageToFirstDelta(server.url, project.id, post, counted, queries);
      const bareMs = await bareFirstDelta(`${baseUrl}/chat/completions`);
      if (index >= WARMUP) {
        throughForja.push(forjaMs);
        bare.push(bareMs);
      }
    }
  } finally {
    await server.close();
    await forja.close();
    await bench.dispose();
  }
  if (lastTrace !== undefined) printTrace(`${engine}, ${layout}`, lastTrace);
  const bareSummary = summarise(bare);
  const forjaSummary = summarise(throughForja);
  const measured = queries.slice(WARMUP);
  const p50 = (pick: (message: MessageQueries) => number) => percentile(measured.map(pick), 50);
  return [
    {
      engine,
      layout,
      path: 'bare client, same mock stream (baseline)',
      p50_ms: bareSummary.p50_ms,
      p99_ms: bareSummary.p99_ms,
      p50_vs_baseline: 1,
    },
    {
      engine,
      layout,
      path: 'POST message → first agent.delta on SSE',
      p50_ms: forjaSummary.p50_ms,
      p99_ms: forjaSummary.p99_ms,
      p50_vs_baseline: round(forjaSummary.p50_ms / bareSummary.p50_ms, 2),
      statements: p50((message) => message.all.message + message.all.memory + message.all.other),
      message: p50((message) => message.all.message),
      memory: p50((message) => message.all.memory),
      other: p50((message) => message.all.other),
      message_to_first_delta: p50((message) => message.toFirstDelta.message),
      memory_to_first_delta: p50((message) => message.toFirstDelta.memory),
      other_to_first_delta: p50((message) => message.toFirstDelta.other),
    },
  ];
}

async function messageToFirstDelta(
  url: string,
  projectId: string,
  post: (path: string, body: unknown) => Promise<{ id: string }>,
  counted: CountedDatabase,
  queries: MessageQueries[],
): Promise<number> {
  const session = await post(`/api/projects/${projectId}/sessions`, {});
  const stream = readServerSentEvents(await fetch(`${url}/api/sessions/${session.id}/stream`));
  await stream.next(); // session.created: the stream is open and subscribed
  // Criativo is activated: the measured message is the first it answers.
  await post(`/api/sessions/${session.id}/agents/criativo/start`, {});
  await stream.next(30_000); // agent.activated
  const firstStatement = counted.statements.length;
  const started = performance.now();
  await post(`/api/sessions/${session.id}/messages`, {
    text: 'Plan the bakery subscription, briefly.',
  });
  let firstDeltaMs = Number.NaN;
  for (let message = await stream.next(30_000); ; message = await stream.next(30_000)) {
    if (message.event === 'agent.delta' && Number.isNaN(firstDeltaMs))
      firstDeltaMs = performance.now() - started;
    if (message.event === 'agent.done') break;
  }
  const statements = counted.statements.slice(firstStatement);
  const byIssuer = (list: Statement[]) => ({
    message: list.filter((statement) => statement.issuer === 'message').length,
    memory: list.filter((statement) => statement.issuer === 'memory').length,
    other: list.filter((statement) => statement.issuer === 'other').length,
  });
  queries.push({
    all: byIssuer(statements),
    toFirstDelta: byIssuer(statements.filter((statement) => statement.at - started < firstDeltaMs)),
  });
  if (process.env.FORJA_BENCH_TRACE === '1') lastTrace = { statements, started, firstDeltaMs };
  await stream.close();
  return firstDeltaMs;
}

async function bareFirstDelta(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'bench-model', messages: [], stream: true }),
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let firstDeltaMs = Number.NaN;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    const lines = (pending + decoder.decode(chunk.value, { stream: true })).split('\n');
    pending = lines.pop() ?? '';
    if (
      Number.isNaN(firstDeltaMs) &&
      lines.some((line) => line.includes('"content":"') && !line.includes('"content":""'))
    )
      firstDeltaMs = performance.now() - started;
  }
  return firstDeltaMs;
}

interface MessageQueries {
  all: Record<Issuer, number>;
  toFirstDelta: Record<Issuer, number>;
}

interface Statement {
  at: number;
  sql: string;
  issuer: Issuer;
}

interface CountedDatabase {
  database: Database;
  /** Every statement since the last message was measured. */
  statements: Statement[];
}

let lastTrace: { statements: Statement[]; started: number; firstDeltaMs: number } | undefined;

/**
 * The same database, recording every statement sent through it (inside transactions too, with the
 * transaction's begin and commit: each is a round trip), and the memory workers' database the same way.
 * An engine without `background` (the code before ADR 0427) runs their statements on the database itself:
 * counted apart all the same.
 */
function countingQueries(database: Database): CountedDatabase {
  const statements: Statement[] = [];
  const record = (sql: string, issuer: Issuer) =>
    statements.push({ at: performance.now(), sql: sql.replace(/\s+/g, ' ').trim(), issuer });
  const issuerNow = (fixed: Issuer | undefined): Issuer =>
    fixed ?? (messagePath.getStore() === true ? 'message' : 'other');
  const counting = (target: Queryable, issuer: () => Issuer): Queryable => ({
    query: (sql, params) => (record(sql, issuer()), target.query(sql, params)),
    execute: (script) => (record(script, issuer()), target.execute(script)),
  });
  const wrap = (target: Database, fixed?: Issuer): Database => ({
    ...target,
    ...counting(target, () => issuerNow(fixed)),
    transaction: (work, options) => {
      // A transaction belongs to whoever began it.
      const issuer = issuerNow(fixed);
      record('begin', issuer);
      return target
        .transaction((transaction) => work(counting(transaction, () => issuer)), options)
        .finally(() => record('commit', issuer));
    },
  });
  return {
    database: { ...wrap(database), background: wrap(database.background ?? database, 'memory') },
    statements,
  };
}

function printTrace(
  engine: string,
  trace: { statements: Statement[]; started: number; firstDeltaMs: number },
): void {
  const lines = trace.statements.map(
    ({ at, sql, issuer }) =>
      `${(at - trace.started).toFixed(1).padStart(7)} ms ${issuer.padEnd(7)}  ${sql.slice(0, 140)}`,
  );
  const before = trace.statements.filter(
    ({ at }) => at - trace.started < trace.firstDeltaMs,
  ).length;
  lines.splice(
    before,
    0,
    `${trace.firstDeltaMs.toFixed(1).padStart(7)} ms  ---- first agent.delta ----`,
  );
  console.log(
    `${engine}, the last message: ${trace.statements.length} statements\n${lines.join('\n')}`,
  );
}
