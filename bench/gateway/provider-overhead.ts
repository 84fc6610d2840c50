/**
 * Benchmark: what the OpenAI adapter adds on top of the wire. A local OpenAI-format server streams
 * N deltas with no artificial delay; the same answer is read (a) directly, with a bare fetch and a
 * line split, and (b) through the adapter, interleaved in one run so both see the same machine state.
 * Reports time-to-first-delta and total time, p50 and p99, and the difference.
 */
import pino from 'pino';
import { createModelGateway } from '../../src/gateway/create-model-gateway.ts';
import type { ModelGateway } from '../../src/gateway/model-gateway.ts';
import { createOpenAiProvider } from '../../src/gateway/providers/openai/create-openai-provider.ts';
import { migrate } from '../../src/store/migrations/migrate.ts';
import { openPgliteDatabase } from '../../src/store/pglite-database.ts';
import { createEventLog, createProject } from '../../src/store/index.ts';
import type { ModelRequest } from '../../src/gateway/providers/model-provider.ts';
import { openAiStream } from '../../src/gateway/providers/testing/openai-wire.ts';
import { startOpenAiTestServer } from '../../src/gateway/providers/testing/start-provider-test-servers.ts';

const deltaCount = 200;
const measuredRequests = 200;
const warmupRequests = 50;

type Timing = { firstDeltaMs: number; totalMs: number };
type BenchmarkResult = {
  name: string;
  rows: Array<Record<string, string | number>>;
  notes?: string[];
};

const request: ModelRequest = {
  agent: 'bench',
  system: 'You are a benchmark.',
  messages: [{ role: 'user', content: 'Stream please.' }],
  tools: [],
  maxOutputTokens: 1024,
};

/** Runs the benchmark; `npm run bench` collects the result. */
export async function run(): Promise<BenchmarkResult> {
  const server = await startOpenAiTestServer();
  const answer = openAiStream({
    textDeltas: Array.from({ length: deltaCount }, (_, index) => `token${index} `),
    usage: { inputTokens: 10, outputTokens: deltaCount },
  });
  server.respondWith(() => answer);
  const provider = createOpenAiProvider({ model: 'bench-model', baseUrl: server.baseUrl });
  const url = `${server.baseUrl}/chat/completions`;
  const directBody = JSON.stringify({ model: 'bench-model', messages: [], stream: true });
  // The whole gateway: budget reservation and settlement in the database (embedded PGlite) around the adapter.
  const database = await openPgliteDatabase();
  await migrate(database);
  const project = await createProject(database, { name: 'bench' });
  const gateway = createModelGateway({
    database,
    eventLog: createEventLog(database),
    provider,
    logger: pino({ level: 'silent' }),
  });
  const paths: Array<{ read: () => Promise<Timing>; timings: Timing[] }> = [
    { read: () => readDirectly(url, directBody), timings: [] },
    { read: () => readThroughAdapter(provider), timings: [] },
    { read: () => readThroughGateway(gateway, project.id), timings: [] },
  ];
  try {
    for (let index = 0; index < warmupRequests + measuredRequests; index += 1) {
      // Rotate which path goes first so none always finds the warmer connection pool.
      for (let offset = 0; offset < paths.length; offset += 1) {
        const path = paths[(index + offset) % paths.length]!;
        const timing = await path.read();
        if (index >= warmupRequests) path.timings.push(timing);
      }
    }
  } finally {
    await server.close();
    await database.close();
  }
  const directRow = summarise('direct (fetch + line split)', paths[0]!.timings);
  const adapterRow = summarise('through openai adapter', paths[1]!.timings);
  const gatewayRow = summarise('through the model gateway (metered, PGlite)', paths[2]!.timings);
  return {
    name: 'gateway provider overhead',
    rows: [
      directRow,
      adapterRow,
      gatewayRow,
      difference('added by adapter', adapterRow, directRow),
      difference('added by gateway (adapter + metering + budget)', gatewayRow, directRow),
    ],
    notes: [
      `${deltaCount} deltas per answer, ${measuredRequests} requests per path after ${warmupRequests} warm-up, local server on 127.0.0.1.`,
      'Added = adapter percentile minus direct percentile. Aim: ≤ 1 ms added time-to-first-delta at p50, ≤ 5 ms at p99.',
      'The gateway row adds the budget reservation (a transaction) before the call and the settlement after it, on embedded PGlite in memory.',
    ],
  };
}

async function readDirectly(url: string, body: string): Promise<Timing> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let firstDeltaMs: number | undefined;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    const lines = (pending + decoder.decode(chunk.value, { stream: true })).split('\n');
    pending = lines.pop() ?? '';
    // The first chunk carries the role with empty content; the first delta is the first non-empty one.
    if (
      firstDeltaMs === undefined &&
      lines.some((line) => line.includes('"content":"') && !line.includes('"content":""'))
    ) {
      firstDeltaMs = performance.now() - started;
    }
  }
  return { firstDeltaMs: firstDeltaMs ?? Number.NaN, totalMs: performance.now() - started };
}

async function readThroughAdapter(
  provider: ReturnType<typeof createOpenAiProvider>,
): Promise<Timing> {
  const started = performance.now();
  let firstDeltaMs: number | undefined;
  for await (const part of provider.stream(request, { signal: new AbortController().signal })) {
    if (firstDeltaMs === undefined && part.type === 'text-delta')
      firstDeltaMs = performance.now() - started;
  }
  return { firstDeltaMs: firstDeltaMs ?? Number.NaN, totalMs: performance.now() - started };
}

async function readThroughGateway(gateway: ModelGateway, projectId: string): Promise<Timing> {
  const started = performance.now();
  let firstDeltaMs: number | undefined;
  const outcome = await gateway.runTurn(
    {
      projectId,
      sessionId: null,
      agent: request.agent,
      system: request.system,
      messages: request.messages,
      tools: [],
      maxOutputTokens: request.maxOutputTokens,
    },
    { onTextDelta: () => (firstDeltaMs ??= performance.now() - started) },
  );
  if (outcome.status !== 'completed') throw new Error(`gateway turn ${outcome.status}`);
  return { firstDeltaMs: firstDeltaMs ?? Number.NaN, totalMs: performance.now() - started };
}

type Row = {
  path: string;
  ttfd_p50_ms: number;
  ttfd_p99_ms: number;
  total_p50_ms: number;
  total_p99_ms: number;
};

function summarise(path: string, timings: Timing[]): Row {
  const firstDeltas = timings.map((timing) => timing.firstDeltaMs);
  const totals = timings.map((timing) => timing.totalMs);
  return {
    path,
    ttfd_p50_ms: percentile(firstDeltas, 50),
    ttfd_p99_ms: percentile(firstDeltas, 99),
    total_p50_ms: percentile(totals, 50),
    total_p99_ms: percentile(totals, 99),
  };
}

function difference(path: string, measured: Row, baseline: Row): Row {
  return {
    path,
    ttfd_p50_ms: round(measured.ttfd_p50_ms - baseline.ttfd_p50_ms),
    ttfd_p99_ms: round(measured.ttfd_p99_ms - baseline.ttfd_p99_ms),
    total_p50_ms: round(measured.total_p50_ms - baseline.total_p50_ms),
    total_p99_ms: round(measured.total_p99_ms - baseline.total_p99_ms),
  };
}

// Nearest-rank percentile.
function percentile(values: number[], rank: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  const index = Math.min(
    sorted.length - 1,
    Math.max(0, Math.ceil((rank / 100) * sorted.length) - 1),
  );
  return round(sorted[index] ?? Number.NaN);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

if (import.meta.main) {
  const result = await run();
  console.table(result.rows);
  for (const note of result.notes ?? []) console.log(note);
}
