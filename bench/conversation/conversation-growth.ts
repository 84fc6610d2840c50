import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { createForja, type Forja } from '../../src/composition.ts';
import { loadConfig } from '../../src/config/config.ts';
import {
  createScriptedProvider,
  estimateRequestTokens,
  type ModelProvider,
  type ModelRequest,
} from '../../src/gateway/providers/index.ts';
import { migrate } from '../../src/store/migrations/migrate.ts';
import { openPgliteDatabase } from '../../src/store/pglite-database.ts';
import {
  createEventLog,
  createProject,
  createSession,
  type Database,
} from '../../src/store/index.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { round } from '../lib/latency.ts';
import { SESSION_EVENTS } from '../../src/domain/conversation/index.ts';

// BENCH_GROWTH_SIZES=100,1000 runs fewer sizes (a quick look); the results file is written from the full run.
const SIZES = (process.env.BENCH_GROWTH_SIZES ?? '100,1000,10000,100000').split(',').map(Number);
const MESSAGES = 6;
/** Restarts per size and variant, interleaved: snapshot, no snapshot, snapshot, … (sizes of 10,000 and more). */
const COLD_ROUNDS = Number(process.env.BENCH_GROWTH_COLD_ROUNDS ?? 5);
const COLD_FROM = 10_000;
const WINDOW = 16_000;
const BATCH = 2_000;
const QUESTION =
  'Pensei em vender pão de fermentação natural por assinatura, com entrega antes das 6h no bairro. O que acha?';
const ANSWER =
  'Boa ideia: a assinatura dá previsibilidade à produção. Quem acorda cedo valoriza pão fresco; vale definir o raio de entrega, o horário limite e o que acontece num feriado.';

/**
 * What one more message costs as a conversation grows to 100 / 1,000 / 10,000 /
 * 100,000 events — the request sent to the model (bytes, estimated input tokens) and the server's CPU for
 * the whole message (HTTP, appends, folds, context, scripted model) — with the ContextManager compacting in a
 * 16,000-token window, beside the same session in a window so large it never compacts. The two run
 * interleaved, message by message, on one embedded PGlite in memory (its CPU is the process's, so it counts).
 */
export async function run(): Promise<BenchReport> {
  const database = await openPgliteDatabase();
  await migrate(database);
  const compacting = await forjaWith(database, WINDOW);
  const whole = await forjaWith(database, 10_000_000);
  const rows: Array<Record<string, string | number>> = [];
  try {
    const project = await createProject(database, { name: 'bench' });
    for (const size of SIZES) {
      const started = performance.now();
      const sessions = {
        compacting: await generatedSession(database, project.id, size),
        whole: await generatedSession(database, project.id, size),
      };
      const generatedMs = performance.now() - started;
      // Rehydrate both views first: a restart's one-off fold is not what a message costs.
      await compacting.forja.conversation.views.load(sessions.compacting);
      await whole.forja.conversation.views.load(sessions.whole);
      const measured = { compacting: [] as Sample[], whole: [] as Sample[] };
      for (let index = 0; index < MESSAGES; index += 1) {
        measured.compacting.push(await message(compacting, sessions.compacting));
        measured.whole.push(await message(whole, sessions.whole));
      }
      const compactions = (
        await database.query<{ n: number }>(
          `select count(*)::int as n from session_events where session_id = $1 and type = 'context.compacted'`,
          [sessions.compacting],
        )
      ).rows[0]!.n;
      rows.push(
        row(
          size,
          'compacting, first message',
          measured.compacting.slice(0, 1),
          generatedMs,
          compactions,
        ),
      );
      rows.push(
        row(size, 'compacting, after', measured.compacting.slice(1), generatedMs, compactions),
      );
      rows.push(row(size, 'no compaction', measured.whole, generatedMs, 0));
      if (size >= COLD_FROM)
        rows.push(...(await coldRows(database, sessions.compacting, size, generatedMs)));
    }
  } finally {
    await compacting.forja.close();
    await whole.forja.close();
    await database.close();
  }
  return { name: 'conversation-growth', rows, notes: NOTES };
}

/**
 * The first message after a restart (ADR 0426): each round starts a new Forja over the same database (no view
 * kept), sends one message to the compacting session and closes it — once with the session's snapshot, once
 * with the snapshots deleted (the whole log folded, as before snapshots), interleaved. The Forja closed after
 * the full fold writes the snapshot the next round starts from.
 */
async function coldRows(
  database: Database,
  sessionId: string,
  size: number,
  generatedMs: number,
): Promise<Array<Record<string, string | number>>> {
  const samples = { snapshot: [] as Sample[], whole: [] as Sample[] };
  const restartAndSend = async (variant: keyof typeof samples) => {
    if (variant === 'whole') await database.query('delete from session_view_snapshots');
    const restarted = await forjaWith(database, WINDOW);
    try {
      samples[variant].push(await message(restarted, sessionId));
    } finally {
      await restarted.forja.close();
    }
  };
  // The first restart writes the session's snapshot (at close), unmeasured.
  await restartAndSend('whole');
  samples.whole.length = 0;
  for (let round = 0; round < COLD_ROUNDS; round += 1) {
    await restartAndSend('snapshot');
    await restartAndSend('whole');
  }
  const compactions = (
    await database.query<{ n: number }>(
      `select count(*)::int as n from session_events where session_id = $1 and type = 'context.compacted'`,
      [sessionId],
    )
  ).rows[0]!.n;
  return [
    row(size, 'cold first message, snapshot', samples.snapshot, generatedMs, compactions),
    row(size, 'cold first message, whole log', samples.whole, generatedMs, compactions),
  ];
}

const NOTES = [
  `Each size is a Criativo session of person/answer pairs (~${QUESTION.length} and ~${ANSWER.length} characters) written by batched appends of ${BATCH} events; then ${MESSAGES} messages to each of two copies, interleaved.`,
  `compacting: FORJA_MODEL_CONTEXT_TOKENS=${WINDOW}; its first message runs the summarising call (a second scripted model call, metered). no compaction: a 10,000,000-token window, so the whole history is sent, as before the ContextManager.`,
  `cold first message (sizes from ${COLD_FROM}): the compacting session after its messages, ${COLD_ROUNDS} restarts each, interleaved — a new Forja over the same database sends one message and closes. snapshot: the session's view read from its snapshot and only the events after it folded (ADR 0426); whole log: the snapshots deleted first, so the whole log is read and folded, as before. Compare with "compacting, after", a warm message.`,
  "request_kb = JSON of system + messages + tools as the provider receives them; input_tokens = the gateway's estimate (bytes / 4); cpu_ms = process CPU (user + system) for POST /messages until the turn is idle, median; wall_ms likewise.",
];

interface Sample {
  requestBytes: number;
  inputTokens: number;
  cpuMs: number;
  wallMs: number;
}

async function forjaWith(
  database: Database,
  windowTokens: number,
): Promise<{ forja: Forja; requests: ModelRequest[] }> {
  const turns = [
    ...Array.from({ length: SIZES.length * MESSAGES }, () => ({ agent: 'criativo', text: ANSWER })),
    ...Array.from({ length: SIZES.length * MESSAGES }, () => ({
      agent: 'context-manager',
      text: `Resumo: a pessoa quer vender pão de fermentação natural por assinatura, entrega antes das 6h (#3).`,
    })),
  ];
  const scripted = createScriptedProvider({ script: { turns } });
  const requests: ModelRequest[] = [];
  const provider: ModelProvider = {
    ...scripted,
    stream: (request, options) => {
      if (request.agent === 'criativo') requests.push(request);
      return scripted.stream(request, options);
    },
  };
  const env = { FORJA_MODEL_CONTEXT_TOKENS: String(windowTokens) };
  const loaded = loadConfig({ LOG_LEVEL: 'silent' });
  if (!loaded.ok) throw new Error(loaded.error.message);
  return {
    forja: await createForja(loaded.config, pino({ level: 'silent' }), {
      database,
      env,
      provider,
      memory: { workers: false },
    }),
    requests,
  };
}

async function generatedSession(
  database: Database,
  projectId: string,
  events: number,
): Promise<string> {
  const eventLog = createEventLog(database);
  const session = await createSession(database, { projectId });
  await eventLog.append(session.id, [
    SESSION_EVENTS.agentActivated.create('user', { v: 1, agent: 'criativo', handoff_id: null }),
  ]);
  let written = 2;
  while (written < events) {
    const pairs = Math.min(BATCH, events - written) / 2;
    const batch = Array.from({ length: Math.max(1, Math.floor(pairs)) }, (_, index) => [
      SESSION_EVENTS.chatMessage.create('user', {
        v: 1,
        text: `${QUESTION} (${written + index * 2})`,
      }),
      SESSION_EVENTS.agentResponse.create('criativo', { v: 1, agent: 'criativo', text: ANSWER }),
    ]).flat();
    const outcome = await eventLog.append(session.id, batch);
    if (!outcome.success) throw new Error(outcome.error.message);
    written += batch.length;
  }
  return session.id;
}

async function message(
  target: { forja: Forja; requests: ModelRequest[] },
  sessionId: string,
): Promise<Sample> {
  const before = target.requests.length;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const response = await target.forja.app.request(`/api/sessions/${sessionId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: QUESTION }),
  });
  if (response.status !== 201)
    throw new Error(`POST /messages: ${response.status} ${await response.text()}`);
  await target.forja.conversation.idle(sessionId);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (target.requests.length !== before + 1)
    throw new Error(`the message to ${sessionId} was not answered by one model call`);
  const request = target.requests.at(-1)!;
  return {
    requestBytes: Buffer.byteLength(
      JSON.stringify({ system: request.system, messages: request.messages, tools: request.tools }),
    ),
    inputTokens: estimateRequestTokens(request),
    cpuMs: (used.user + used.system) / 1000,
    wallMs,
  };
}

function row(
  size: number,
  mode: string,
  samples: Sample[],
  generatedMs: number,
  compactions: number,
): Record<string, string | number> {
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
  return {
    events: size,
    mode,
    messages: samples.length,
    request_kb: round(median(samples.map((sample) => sample.requestBytes)) / 1024, 1),
    input_tokens: median(samples.map((sample) => sample.inputTokens)),
    max_request_tokens: Math.max(...samples.map((sample) => sample.inputTokens)),
    cpu_ms: round(median(samples.map((sample) => sample.cpuMs)), 1),
    wall_ms: round(median(samples.map((sample) => sample.wallMs)), 1),
    compactions,
    generate_s: round(generatedMs / 1000, 1),
  };
}
