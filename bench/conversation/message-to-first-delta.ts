/**
 * Benchmark: the whole HTTP path of a message. A browser-like client holds an SSE stream open, POSTs a message,
 * and times the first `agent.delta` on its stream; beside it, interleaved, a bare client reads the same paced
 * OpenAI-format answer from the same local mock server and times its first non-empty delta. The provider runs
 * with the retry wrapper production uses (built from FORJA_MODEL like `forja serve`). PGlite on disk (on its worker
 * thread, as `forja serve` opens it, and on the main thread as before ADR 0215) and the PostgreSQL server.
 */
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { createForja } from '../../src/composition.ts';
import { loadConfig } from '../../src/config/config.ts';
import { listen } from '../../src/http/listen.ts';
import { openAiStream } from '../../src/gateway/providers/testing/openai-wire.ts';
import type { StreamStep } from '../../src/gateway/providers/testing/sse-test-server-types.ts';
import { startOpenAiTestServer } from '../../src/gateway/providers/testing/start-provider-test-servers.ts';
import { readServerSentEvents } from '../../src/testing/read-server-sent-events.ts';
import { openBenchPglite, openBenchServer, type BenchDatabase } from '../lib/bench-databases.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { percentile, round, summarise } from '../lib/latency.ts';
import type { Database, Queryable } from '../../src/store/index.ts';

const MESSAGES = 60;
const WARMUP = 8;
const TOKENS = 40;
const PACE_MS = 2;
/**
 * The memory workers' statements (outbox drains, graph projection, RAG indexing), told apart by the tables
 * they name: derived work an append wakes, not the message's path.
 */
const MEMORY_WORK = /outbox|\bgraph\.|\brag\.|session_events e join sessions/;

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
  try {
    const embedded = await openBenchPglite();
    rows.push(...(await measureEngine(embedded, mock.baseUrl)));
    // The same, with the drains' transactions not marked background: as before ADR 0245.
    const undeferred = await openBenchPglite();
    rows.push(
      ...(await measureEngine(undeferred, mock.baseUrl, {
        engine: `${undeferred.engine}, drains not deferred (before ADR 0245)`,
        background: false,
      })),
    );
    // PGlite on the main thread, as it ran before ADR 0215: what the worker thread costs (or saves).
    const inProcess = await openBenchPglite({ thread: 'main' });
    rows.push(...(await measureEngine(inProcess, mock.baseUrl)));
    const server = await openBenchServer();
    if ('unavailable' in server)
      notes.push(`PostgreSQL server not measured: ${server.unavailable}`);
    else rows.push(...(await measureEngine(server, mock.baseUrl)));
  } finally {
    await mock.close();
  }
  notes.push(
    `${MESSAGES} messages per engine after ${WARMUP} warm-up, each in a new session, interleaved with the bare client; ${TOKENS} deltas paced ${PACE_MS} ms apart (the first ${PACE_MS * 2} ms after the request).`,
  );
  notes.push(
    "queries: statements sent from the POST until agent.done, a transaction's begin and commit counted as two; p50 per message. all_queries: every statement, with the memory workers' drains the appends wake; queries: without them (HTTP, conversation, gateway, streams); queries_to_first_delta: those sent before the first delta. Goal: ≤ 6 per message.",
    'FORJA_BENCH_TRACE=1 prints every statement of the last message of each engine, with its time since the POST.',
    "PGlite on the main thread: the bare client shares the benchmark's event loop with that engine's statements and drains, so its baseline is slowed too and the row's ratio flatters it; compare its p50_ms with the worker thread's instead.",
  );
  notes.push(
    'Forja: POST /api/sessions/:id/messages → first agent.delta on an SSE stream opened before, over real HTTP on 127.0.0.1. Goal: p50 ≤ 2× the bare client.',
  );
  return { name: 'message-to-first-delta', rows, notes };
}

async function measureEngine(
  bench: BenchDatabase,
  baseUrl: string,
  variant: { engine?: string; background?: false } = {},
): Promise<BenchReport['rows']> {
  const engine = variant.engine ?? bench.engine;
  const loaded = loadConfig({});
  if (!loaded.ok) throw new Error(loaded.error.message);
  const env = {
    FORJA_MODEL: 'openai:bench-model',
    OPENAI_BASE_URL: baseUrl,
    OPENAI_API_KEY: 'bench',
  };
  const counted = countingQueries(bench.database, variant.background !== false);
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    env,
    database: counted.database,
    memory: { workers: true },
  });
  const server = await listen(forja.app.fetch, { host: '127.0.0.1', port: 0 });
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
  if (lastTrace !== undefined) printTrace(engine, lastTrace);
  const bareSummary = summarise(bare);
  const forjaSummary = summarise(throughForja);
  return [
    {
      engine,
      path: 'bare client, same mock stream (baseline)',
      p50_ms: bareSummary.p50_ms,
      p99_ms: bareSummary.p99_ms,
      p50_vs_baseline: 1,
    },
    {
      engine,
      path: 'POST message → first agent.delta on SSE',
      p50_ms: forjaSummary.p50_ms,
      p99_ms: forjaSummary.p99_ms,
      p50_vs_baseline: round(forjaSummary.p50_ms / bareSummary.p50_ms, 2),
      all_queries: percentile(
        queries.slice(WARMUP).map((message) => message.all),
        50,
      ),
      queries: percentile(
        queries.slice(WARMUP).map((message) => message.path),
        50,
      ),
      queries_to_first_delta: percentile(
        queries.slice(WARMUP).map((message) => message.toFirstDelta),
        50,
      ),
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
  const path = statements.filter((statement) => !statement.memory);
  queries.push({
    all: statements.length,
    path: path.length,
    toFirstDelta: path.filter((statement) => statement.at - started < firstDeltaMs).length,
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
  all: number;
  path: number;
  toFirstDelta: number;
}

interface Statement {
  at: number;
  sql: string;
  memory: boolean;
}

interface CountedDatabase {
  database: Database;
  /** Every statement since the last message was measured. */
  statements: Statement[];
}

let lastTrace: { statements: Statement[]; started: number; firstDeltaMs: number } | undefined;

/**
 * The same database, recording every statement sent through it (inside transactions too, with the
 * transaction's begin and commit: each is a round trip).
 */
function countingQueries(database: Database, background = true): CountedDatabase {
  const statements: Statement[] = [];
  const record = (sql: string): Statement => {
    const text = sql.replace(/\s+/g, ' ').trim();
    const statement = { at: performance.now(), sql: text, memory: MEMORY_WORK.test(text) };
    statements.push(statement);
    return statement;
  };
  const counting = (target: Queryable, seen?: (statement: Statement) => void): Queryable => {
    const note = (sql: string) => {
      const statement = record(sql);
      seen?.(statement);
    };
    return {
      query: (sql, params) => (note(sql), target.query(sql, params)),
      execute: (script) => (note(script), target.execute(script)),
    };
  };
  return {
    database: {
      ...database,
      ...counting(database),
      // Before ADR 0245 a drain neither waited for a quiet connection nor gave way to waiting requests.
      ...(background ? {} : { requestsWaiting: undefined }),
      transaction: (work, options) => {
        // A transaction belongs to the work of its first statement.
        const begin: Statement = { at: performance.now(), sql: 'begin', memory: false };
        statements.push(begin);
        let first = true;
        const classify = (statement: Statement) => {
          if (first) begin.memory = statement.memory;
          first = false;
        };
        return database
          .transaction(
            (transaction) => work(counting(transaction, classify)),
            background ? options : undefined,
          )
          .finally(() =>
            statements.push({ at: performance.now(), sql: 'commit', memory: begin.memory }),
          );
      },
    },
    statements,
  };
}

function printTrace(
  engine: string,
  trace: { statements: Statement[]; started: number; firstDeltaMs: number },
): void {
  const lines = trace.statements.map(
    ({ at, sql, memory }) =>
      `${(at - trace.started).toFixed(1).padStart(7)} ms ${memory ? 'memory' : '      '}  ${sql.slice(0, 140)}`,
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
