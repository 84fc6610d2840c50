/**
 * The fan-out case of the `sse-streaming` benchmark: 1, 100 and 1,000 event-stream clients of ONE
 * session while a paced turn streams, the three cases interleaved, round after round. The server is a real
 * Forja (PGlite on disk, the production provider wrapper over an OpenAI-format mock, real HTTP on
 * 127.0.0.1); the clients and the mock run in a child process, so `process.cpuUsage()` here is the server's.
 * Per case: each client's time from the POST of the message to its first `agent.delta` (p50, p99 over
 * clients and rounds), the server's CPU from the POST to the last client's `agent.done`, and the statements
 * the server sent meanwhile.
 */
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { createForja } from '../../src/composition.ts';
import { loadConfig } from '../../src/config/config.ts';
import { listen } from '../../src/http/listen.ts';
import type { Database, Queryable } from '../../src/store/index.ts';
import { openBenchPglite } from '../lib/bench-databases.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { percentile, round } from '../lib/latency.ts';
import type { FromClients, ToClients } from './sse-fan-out-clients.ts';

const CLIENT_COUNTS = [1, 100, 1000];
const ROUNDS = 3;
const now = () => performance.timeOrigin + performance.now();

export async function fanOutRows(): Promise<BenchReport['rows']> {
  const child = fork(new URL('./sse-fan-out-clients.ts', import.meta.url), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const inbox: FromClients[] = [];
  const waiters: Array<() => void> = [];
  child.on('message', (message: FromClients) => {
    inbox.push(message);
    for (const wake of waiters.splice(0)) wake();
  });
  const next = async <Kind extends FromClients['kind']>(
    kind: Kind,
  ): Promise<Extract<FromClients, { kind: Kind }>> => {
    for (;;) {
      const index = inbox.findIndex((message) => message.kind === kind);
      if (index >= 0) return inbox.splice(index, 1)[0] as Extract<FromClients, { kind: Kind }>;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const tell = (message: ToClients) => child.send(message);
  const { baseUrl } = await next('mock');

  const bench = await openBenchPglite();
  const loaded = loadConfig({});
  if (!loaded.ok) throw new Error(loaded.error.message);
  const counted = countingQueries(bench.database);
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    env: { FORJA_MODEL: 'openai:bench-model', OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: 'bench' },
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
  const results = new Map(
    CLIENT_COUNTS.map((clients) => [
      clients,
      {
        firstDeltaMs: [] as number[],
        cpuMs: [] as number[],
        queries: [] as number[],
        wallMs: [] as number[],
      },
    ]),
  );
  try {
    const project = await post('/api/projects', { name: 'bench' });
    const turn = async (clients: number) => {
      const session = await post(`/api/projects/${project.id}/sessions`, {});
      await post(`/api/sessions/${session.id}/agents/criativo/start`, {});
      tell({ kind: 'open', url: server.url, sessionId: session.id, clients });
      await next('ready');
      const queriesBefore = counted.count();
      const cpuBefore = process.cpuUsage();
      const started = now();
      await post(`/api/sessions/${session.id}/messages`, { text: 'Plan the bakery subscription.' });
      const done = await next('done');
      const cpu = process.cpuUsage(cpuBefore);
      const entry = results.get(clients)!;
      entry.firstDeltaMs.push(...done.firstDeltaAt.map((at) => at - started));
      entry.cpuMs.push((cpu.user + cpu.system) / 1000);
      entry.queries.push(counted.count() - queriesBefore);
      entry.wallMs.push(Math.max(...done.doneAt) - started);
      tell({ kind: 'close' });
      // Let the server see the disconnects before the next case.
      await new Promise((resolve) => setTimeout(resolve, 200));
    };
    await turn(1); // warm-up
    for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex += 1)
      for (const clients of CLIENT_COUNTS) await turn(clients);
  } finally {
    tell({ kind: 'exit' });
    await server.close();
    await forja.close();
    await bench.dispose();
  }
  const median = (values: number[]) => percentile(values, 50);
  const baseline = results.get(1)!;
  return CLIENT_COUNTS.map((clients) => {
    const entry = results.get(clients)!;
    return {
      case: `${clients} SSE client${clients === 1 ? ' (baseline)' : 's'} on one session, paced turn`,
      engine: bench.engine,
      rounds: ROUNDS,
      first_delta_p50_ms: round(percentile(entry.firstDeltaMs, 50)),
      first_delta_p99_ms: round(percentile(entry.firstDeltaMs, 99)),
      p50_vs_baseline: round(
        percentile(entry.firstDeltaMs, 50) / percentile(baseline.firstDeltaMs, 50),
        2,
      ),
      last_done_ms: Math.round(median(entry.wallMs)),
      server_cpu_ms: Math.round(median(entry.cpuMs)),
      server_queries: median(entry.queries),
    };
  });
}

/** The same database, counting every statement sent through it (inside transactions too). */
function countingQueries(database: Database): { database: Database; count: () => number } {
  let count = 0;
  const counting = (target: Queryable): Queryable => ({
    query: (sql, params) => ((count += 1), target.query(sql, params)),
    execute: (script) => ((count += 1), target.execute(script)),
  });
  return {
    database: {
      ...database,
      ...counting(database),
      transaction: (work) => database.transaction((transaction) => work(counting(transaction))),
    },
    count: () => count,
  };
}
