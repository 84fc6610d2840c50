import { performance } from 'node:perf_hooks';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import pino from 'pino';
import { refreshSessionView } from '../../src/agents/runtime/session-view.ts';
import { createForja } from '../../src/composition.ts';
import { loadConfig } from '../../src/config/config.ts';
import { createScriptedProvider, type ModelProvider } from '../../src/gateway/providers/index.ts';
import { listen } from '../../src/http/listen.ts';
import { migrate } from '../../src/store/migrations/migrate.ts';
import { openPgliteDatabase } from '../../src/store/pglite-database.ts';
import { createEventLog, createProject, createSession } from '../../src/store/index.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { percentile, round, summarise, timeInterleaved } from '../lib/latency.ts';
import { fanOutRows } from './sse-fan-out.ts';
import { SESSION_EVENTS } from '../../src/domain/conversation/index.ts';

const SESSIONS = 100;
const WORDS_PER_ANSWER = 60;
const REHYDRATION_EVENTS = 10_000;

/**
 * The streaming benchmark: 100 sessions at once, each a browser-like SSE client over real HTTP on
 * 127.0.0.1, each person's message answered by a scripted model streaming word by word. Measures deltas per
 * second, the time from the provider yielding a delta to the client parsing it, and checks that no delta is
 * lost or reordered. Then the rehydration of a 10,000-event session beside a bare read of the same rows.
 */
export async function run(): Promise<BenchReport> {
  return {
    name: 'sse-streaming',
    rows: [await streamingRow(), ...(await rehydrationRows()), ...(await fanOutRows())],
    notes: [...NOTES, ...FAN_OUT_NOTES],
  };
}

const NOTES = [
  `${SESSIONS} sessions, one SSE connection each (fetch + eventsource-parser, as a browser's EventSource), one message each, all at once; ${WORDS_PER_ANSWER} deltas per answer; embedded PGlite in memory.`,
  'latency = client parse time − provider yield time for the same delta (one clock: same process).',
  `Rehydration: fold of a ${REHYDRATION_EVENTS}-event session from an empty view, beside reading the same rows only.`,
];

const FAN_OUT_NOTES = [
  'Fan-out: 1, 100 and 1,000 SSE clients (node:http, one connection each, in a child process with the OpenAI-format mock) of one session; a message, answered by 40 deltas paced 5 ms apart through the production provider wrapper; PGlite on disk; the three cases interleaved in each of 3 rounds after a warm-up.',
  'first_delta = a client receiving its first agent.delta − the POST of the message (one wall clock, two processes); p50/p99 over every client of every round. server_cpu_ms and server_queries: the server process from the POST to the last client’s agent.done (median over rounds); the memory workers it wakes are included.',
];

async function streamingRow(): Promise<Record<string, string | number>> {
  const emittedAt = new Map<string, number>();
  const turns = Array.from({ length: SESSIONS }, (_, turn) => ({
    agent: 'criativo',
    text: Array.from({ length: WORDS_PER_ANSWER }, (_, word) => `t${turn}w${word}`).join(' '),
  }));
  const scripted = createScriptedProvider({ script: { turns } });
  const stamped: ModelProvider = {
    name: scripted.name,
    model: scripted.model,
    async *stream(request, options) {
      for await (const part of scripted.stream(request, options)) {
        if (part.type === 'text-delta') emittedAt.set(part.text.trim(), performance.now());
        yield part;
      }
    },
  };
  const loaded = loadConfig({ LOG_LEVEL: 'silent' });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const database = await openPgliteDatabase();
  await migrate(database);
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    database,
    provider: stamped,
    env: {},
  });
  const server = await listen(forja.app.fetch, {
    host: '127.0.0.1',
    port: 0,
    shutdownGraceMs: 100,
  });
  try {
    const project = await post(server.url, '/api/projects', { name: 'bench' });
    const sessions: string[] = [];
    for (let index = 0; index < SESSIONS; index += 1) {
      const session = await post(server.url, `/api/projects/${project.id}/sessions`, {});
      await post(server.url, `/api/sessions/${session.id}/agents/criativo/start`, undefined);
      sessions.push(session.id);
    }
    const latencies: number[] = [];
    const clients = sessions.map((sessionId) =>
      streamClient(server.url, sessionId, latencies, emittedAt),
    );
    await Promise.all(clients.map((client) => client.ready));
    const started = performance.now();
    await Promise.all(
      sessions.map((sessionId) =>
        post(server.url, `/api/sessions/${sessionId}/messages`, { text: 'go' }),
      ),
    );
    const results = await Promise.all(clients.map((client) => client.done));
    const elapsedMs = performance.now() - started;
    const deltas = results.reduce((sum, result) => sum + result.deltas.length, 0);
    const lost = results.filter((result) => result.deltas.join('') !== result.finalText).length;
    const reordered = results.filter((result) => !isAscending(result.deltas)).length;
    return {
      case: `${SESSIONS} concurrent SSE sessions`,
      deltas,
      deltas_per_s: Math.round((deltas * 1000) / elapsedMs),
      delta_latency_p50_ms: round(percentile(latencies, 50)),
      delta_latency_p99_ms: round(percentile(latencies, 99)),
      sessions_with_lost_deltas: lost,
      sessions_with_reordered_deltas: reordered,
    };
  } finally {
    await server.close();
    await forja.close();
    await database.close();
  }
}

function streamClient(
  baseUrl: string,
  sessionId: string,
  latencies: number[],
  emittedAt: Map<string, number>,
) {
  const controller = new AbortController();
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const done = (async () => {
    const response = await fetch(`${baseUrl}/api/sessions/${sessionId}/stream`, {
      signal: controller.signal,
    });
    markReady();
    const reader = response
      .body!.pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream())
      .getReader();
    const deltas: string[] = [];
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) throw new Error('stream ended before the response');
      if (value.event === 'agent.delta') {
        const text = (JSON.parse(value.data) as { text: string }).text;
        const at = emittedAt.get(text.trim());
        if (at !== undefined) latencies.push(performance.now() - at);
        deltas.push(text);
      } else if (value.event === 'session.event') {
        const event = JSON.parse(value.data) as { type: string; payload: { text: string } };
        if (event.type === 'agent.response') {
          controller.abort();
          return { deltas, finalText: event.payload.text };
        }
      }
    }
  })();
  return { ready, done };
}

function isAscending(deltas: string[]): boolean {
  const words = deltas
    .join('')
    .trim()
    .split(/\s+/)
    .map((word) => Number(/w(\d+)$/.exec(word)?.[1]));
  return words.every((word, index) => index === 0 || word > words[index - 1]!);
}

async function post(baseUrl: string, path: string, body: unknown): Promise<{ id: string }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string };
}

async function rehydrationRows(): Promise<Array<Record<string, string | number>>> {
  const database = await openPgliteDatabase();
  await migrate(database);
  const eventLog = createEventLog(database);
  const project = await createProject(database, { name: 'bench' });
  const session = await createSession(database, { projectId: project.id });
  await eventLog.append(session.id, [
    SESSION_EVENTS.agentActivated.create('user', { v: 1, agent: 'criativo', handoff_id: null }),
  ]);
  for (let batch = 0; batch < REHYDRATION_EVENTS / 100; batch += 1) {
    const events = Array.from({ length: 50 }, (_, index) => [
      SESSION_EVENTS.chatMessage.create('user', {
        v: 1,
        text: `message ${batch}-${index} about the bakery and its customers`,
      }),
      SESSION_EVENTS.agentResponse.create('criativo', {
        v: 1,
        agent: 'criativo',
        text: `answer ${batch}-${index}: who buys the bread at dawn?`,
      }),
    ]).flat();
    await eventLog.append(session.id, events);
  }
  const durations = await timeInterleaved(
    {
      read: () => readAll(eventLog, session.id),
      rehydrate: () => refreshSessionView(eventLog, session.id),
    },
    { read: 15, rehydrate: 15 },
  );
  await database.close();
  return [
    {
      case: `read ${REHYDRATION_EVENTS} events (baseline)`,
      ...summarise(durations.read, REHYDRATION_EVENTS),
    },
    {
      case: `rehydrate a ${REHYDRATION_EVENTS}-event session`,
      ...summarise(durations.rehydrate, REHYDRATION_EVENTS),
    },
  ];
}

async function readAll(eventLog: ReturnType<typeof createEventLog>, sessionId: string) {
  let afterSeq = 0;
  for (;;) {
    const page = await eventLog.read(sessionId, { afterSeq, limit: 1000 });
    if (page.length === 0) return;
    afterSeq = page.at(-1)!.seq;
  }
}
