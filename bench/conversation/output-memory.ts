/**
 * What a model's or a process's output costs the server in memory (RSS), measured in this process with the
 * server in it (PGlite on its worker thread, as `forja serve` runs it; the scripted model in-process):
 * - one answer of 20 MiB characters (20 deltas of 1 MiB): RSS before, the highest sampled during the turn, after;
 * - a session of 15.5 MB (500 events of 31 KB) replayed to 50 event-stream clients that connect and never read
 *   (raw sockets, paused), five cycles of connect, stall, close: RSS while they stall and after they leave.
 * Not a test: nothing fails on a number. `FORJA_BENCH_ENGINE=server` runs it on the PostgreSQL server. RSS after a garbage collection (`--expose-gc` set at run time).
 */
import { connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pino from 'pino';
import { createForja, type Forja } from '../../src/composition.ts';
import { loadConfig } from '../../src/config/config.ts';
import { SESSION_EVENTS } from '../../src/domain/conversation/index.ts';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { listen } from '../../src/http/listen.ts';
import { openBenchPglite, openBenchServer } from '../lib/bench-databases.ts';
import type { BenchReport } from '../lib/bench-report.ts';

const ANSWER_DELTAS = 20;
const DELTA_CHARS = 1024 * 1024;
const REPLAYED_EVENTS = 500;
const EVENT_CHARS = 31_000;
const CLIENTS = 50;
const CYCLES = Number(process.env.FORJA_BENCH_CYCLES ?? 5);
const STALL_MS = Number(process.env.FORJA_BENCH_STALL_MS ?? 3000);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rssAfterGc = async () => (gc(), await sleep(200), gc(), mb(process.memoryUsage().rss));
/** The JavaScript heap in use after a collection: what the process still holds, whatever RSS the allocator keeps. */
const heapAfterGc = () => (
  gc(), mb(process.memoryUsage().heapUsed + process.memoryUsage().external)
);

export async function run(): Promise<BenchReport> {
  // FORJA_BENCH_ENGINE=server: on the PostgreSQL server, so the figures are this process's alone.
  const server = process.env.FORJA_BENCH_ENGINE === 'server' ? await openBenchServer() : null;
  if (server !== null && 'unavailable' in server) throw new Error(server.unavailable);
  const bench = server ?? (await openBenchPglite());
  const loaded = loadConfig({});
  if (!loaded.ok) throw new Error(loaded.error.message);
  const answer = `${'x'.repeat(DELTA_CHARS)} `.repeat(ANSWER_DELTAS);
  const provider = createScriptedProvider({
    script: {
      turns: [{ agent: 'criativo', text: answer }],
    },
  });
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    env: {},
    database: bench.database,
    provider,
  });
  const listening = await listen(forja.app.fetch, { host: '127.0.0.1', port: 0 });
  const rows: BenchReport['rows'] = [];
  try {
    // FORJA_BENCH_CASES=replay measures the replay alone (its baseline not raised by the answer's).
    if (process.env.FORJA_BENCH_CASES !== 'replay')
      rows.push({ ...(await bigAnswer(forja)), engine: bench.engine });
    rows.push(
      ...(await stalledReplay(forja, listening.url)).map((row) => ({
        ...row,
        engine: bench.engine,
      })),
    );
  } finally {
    await listening.close();
    await forja.close();
    await bench.dispose();
  }
  return {
    name: 'output-memory',
    rows,
    notes: [
      `answer: ${ANSWER_DELTAS} deltas of ${DELTA_CHARS} characters; replay: ${REPLAYED_EVENTS} events of ${EVENT_CHARS} characters to ${CLIENTS} clients that never read, ${CYCLES} cycles`,
      'RSS in MB of this process (server, PGlite worker, scripted model); compare runs of the same machine only',
    ],
  };
}

async function newSession(forja: Forja): Promise<string> {
  const call = async (path: string, body: unknown = {}) => {
    const response = await forja.app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${path}: ${response.status}`);
    return (await response.json()) as { id: string };
  };
  const project = await call('/api/projects', { name: 'bench' });
  const session = await call(`/api/projects/${project.id}/sessions`);
  await call(`/api/sessions/${session.id}/agents/criativo/start`);
  await forja.conversation.idle(session.id);
  return session.id;
}

async function bigAnswer(forja: Forja): Promise<Record<string, string | number>> {
  const sessionId = await newSession(forja);
  const before = await rssAfterGc();
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  await forja.app.request(`/api/sessions/${sessionId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'Escreva muito.' }),
  });
  await forja.conversation.idle(sessionId);
  clearInterval(sampler);
  const stored = (await forja.eventLog.read(sessionId, { limit: 10_000 })).at(-1)!;
  if (process.env.FORJA_BENCH_DEBUG)
    console.log(stored.type, JSON.stringify(stored.payload).slice(0, 300));
  return {
    case: `one answer of ${(ANSWER_DELTAS * DELTA_CHARS) / 1024 / 1024} Mi characters`,
    rss_before_mb: before,
    rss_peak_mb: mb(peak),
    rss_after_mb: await rssAfterGc(),
    heap_after_mb: heapAfterGc(),
    stored_chars: (stored.payload as { text?: string }).text?.length ?? 0,
  };
}

async function stalledReplay(forja: Forja, url: string): Promise<BenchReport['rows']> {
  const sessionId = await newSession(forja);
  for (let index = 0; index < REPLAYED_EVENTS; index += 50)
    await forja.eventLog.append(
      sessionId,
      Array.from({ length: 50 }, (_, offset) =>
        SESSION_EVENTS.chatMessage.create('user', {
          v: 1,
          text: `${index + offset} ${'y'.repeat(EVENT_CHARS)}`,
        }),
      ),
    );
  const rows: BenchReport['rows'] = [];
  const baseline = await rssAfterGc();
  const heapBaseline = heapAfterGc();
  for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
    const sockets = Array.from({ length: CLIENTS }, () => stalledClient(url, sessionId));
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    for (let waited = 0; waited < STALL_MS; waited += 1000) {
      await sleep(1000);
      if (process.env.FORJA_BENCH_DEBUG) {
        const { streamReplays } = await import('../../src/http/routes/stream.ts');
        console.log(cycle, waited, JSON.stringify(streamReplays), mb(process.memoryUsage().rss));
      }
    }
    clearInterval(sampler);
    const stalled = mb(process.memoryUsage().rss);
    if (process.env.FORJA_BENCH_DEBUG) {
      const { streamReplays } = await import('../../src/http/routes/stream.ts');
      const usage = process.memoryUsage();
      console.log(
        cycle,
        JSON.stringify(streamReplays),
        mb(usage.heapTotal),
        mb(usage.external),
        mb(usage.arrayBuffers),
      );
    }
    const heapStalled = heapAfterGc();
    for (const socket of sockets) socket.destroy();
    await sleep(1000);
    rows.push({
      case: `${CLIENTS} stalled clients replaying 15.5 MB, cycle ${cycle}`,
      rss_before_mb: baseline,
      rss_peak_mb: mb(peak),
      rss_stalled_mb: stalled,
      rss_after_mb: await rssAfterGc(),
      heap_before_mb: heapBaseline,
      heap_stalled_mb: heapStalled,
      heap_after_mb: heapAfterGc(),
    });
  }
  return rows;
}

/** A client that asks for the stream from the start and never reads a byte of it. */
function stalledClient(url: string, sessionId: string): Socket {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.pause();
  socket.on('error', () => undefined);
  socket.write(
    `GET /api/sessions/${sessionId}/stream HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`,
  );
  return socket;
}
