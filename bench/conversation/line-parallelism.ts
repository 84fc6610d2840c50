import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { createForja, type Forja } from '../../src/composition.ts';
import { loadConfig } from '../../src/config/config.ts';
import {
  parallelLineScript,
  parallelModules,
} from '../../src/conversation/testing/parallel-line-script.ts';
import { createScriptedProvider, type ScriptInput } from '../../src/gateway/providers/index.ts';
import { migrate } from '../../src/store/migrations/migrate.ts';
import { openPgliteDatabase } from '../../src/store/pglite-database.ts';
import { requestJson } from '../../src/testing/forja-harness.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { percentile, round } from '../lib/latency.ts';
import { playUpToTheDevs } from '../../src/conversation/testing/play-up-to-the-devs.ts';

const MODULES = 4;
const DEV_DELAY_MS = 1500;
const DEV_STEPS = 3;
const WALL_ROUNDS = 3;
const MESSAGES = 40;
const STREAM_WORDS = 800;
const STREAM_PACE_MS = 25;
const CRIATIVO_ANSWER =
  'Anotei: café também, para depois do pão. Os devs seguem no que estão fazendo.';

/**
 * Lanes in parallel (ADR 0070). (1) The dev phase of a line of 4 independent modules, each dev's kickoff a turn of
 * three scripted model calls of `delay_ms` 1500 (two read the contracts, the last answers), with FORJA_MAX_PARALLEL_TURNS=4 against =1, rounds interleaved: wall time
 * from accepting the dev handoffs to the last dev's answer. (2) The latency of a message to Criativo (post →
 * answer stored) while four dev lanes stream, against the same message in an idle session of the same
 * process, messages alternating between the two.
 */
export async function run(): Promise<BenchReport> {
  const wall: Record<'parallel_4' | 'parallel_1', number[]> = { parallel_4: [], parallel_1: [] };
  for (let round = 0; round < WALL_ROUNDS; round += 1) {
    for (const [name, slots] of [
      ['parallel_4', 4],
      ['parallel_1', 1],
    ] as const)
      wall[name].push(await devPhaseWallMs(slots));
  }
  const median = (values: number[]) => percentile(values, 50);
  const ratio = median(wall.parallel_4) / median(wall.parallel_1);
  const latency = await criativoLatency();
  const p99Ratio = percentile(latency.busy, 99) / percentile(latency.idle, 99);
  return {
    name: 'line-parallelism',
    rows: [
      {
        measure: 'dev phase wall, FORJA_MAX_PARALLEL_TURNS=4',
        runs: WALL_ROUNDS,
        p50_ms: round(median(wall.parallel_4), 1),
        max_ms: round(Math.max(...wall.parallel_4), 1),
      },
      {
        measure: 'dev phase wall, FORJA_MAX_PARALLEL_TURNS=1',
        runs: WALL_ROUNDS,
        p50_ms: round(median(wall.parallel_1), 1),
        max_ms: round(Math.max(...wall.parallel_1), 1),
      },
      { measure: 'wall ratio 4 / 1 (goal ≤ 0.35)', value: round(ratio, 3) },
      {
        measure: 'message to Criativo, idle session',
        runs: latency.idle.length,
        p50_ms: round(percentile(latency.idle, 50), 1),
        p99_ms: round(percentile(latency.idle, 99), 1),
      },
      {
        measure: 'message to Criativo, 4 devs streaming',
        runs: latency.busy.length,
        p50_ms: round(percentile(latency.busy, 50), 1),
        p99_ms: round(percentile(latency.busy, 99), 1),
        devs_streaming_at_every_sample: String(latency.devsAlwaysStreaming),
      },
      { measure: 'p99 ratio busy / idle (goal ≤ 2)', value: round(p99Ratio, 3) },
    ],
    notes: [
      `Wall: ${MODULES} modules, no dependencies; each dev's kickoff is one turn of ${DEV_STEPS} scripted calls with delay_ms ${DEV_DELAY_MS} each (the first ${DEV_STEPS - 1} call listar_contratos_de_modulos); from POST /dev-handoffs/accept to the session idle (every dev answered); ${WALL_ROUNDS} rounds, 4 and 1 interleaved, a fresh process state and in-memory PGlite each run; git worktrees are created per dev as in real use.`,
      `Latency: ${MESSAGES} messages each side, alternating; busy = a session whose ${MODULES} dev lanes stream ${STREAM_WORDS} words ${STREAM_PACE_MS} ms apart (deltas published live); Criativo answers with no scripted delay; measured from postMessage to its turn's stored agent.response.`,
    ],
  };
}

async function startForja(
  script: ScriptInput,
  slots: number,
): Promise<{ forja: Forja; dispose: () => Promise<void> }> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-bench-lanes-'));
  const loaded = loadConfig({
    FORJA_DATA_DIR: dataDirectory,
    FORJA_MAX_PARALLEL_TURNS: String(slots),
    LOG_LEVEL: 'silent',
  });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const database = await openPgliteDatabase();
  await migrate(database);
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    env: {},
    database,
    provider: createScriptedProvider({ script }),
    memory: { workers: false },
  });
  return {
    forja,
    dispose: async () => {
      await forja.close();
      await database.close();
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

async function devPhaseWallMs(slots: number): Promise<number> {
  const { forja, dispose } = await startForja(
    parallelLineScript({ modules: MODULES, devDelayMs: DEV_DELAY_MS, devSteps: DEV_STEPS }),
    slots,
  );
  try {
    const { sessionId } = await playUpToTheDevs(forja);
    const start = performance.now();
    const accepted = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionId}/dev-handoffs/accept`,
    );
    if (accepted.body.accepted.length !== MODULES)
      throw new Error(`expected ${MODULES} dev handoffs, got ${accepted.body.accepted.length}`);
    await forja.conversation.idle(sessionId);
    const elapsed = performance.now() - start;
    const answered = (await forja.eventLog.read(sessionId, { limit: 10_000 })).filter(
      (event) =>
        event.type === 'agent.response' &&
        String((event.payload as { agent: string }).agent).startsWith('dev:') &&
        (event.payload as { tool_calls?: unknown }).tool_calls === undefined,
    );
    if (answered.length !== MODULES)
      throw new Error(`expected ${MODULES} dev answers, got ${answered.length}`);
    return elapsed;
  } finally {
    await dispose();
  }
}

async function criativoLatency(): Promise<{
  idle: number[];
  busy: number[];
  devsAlwaysStreaming: boolean;
}> {
  const streamText = Array.from({ length: STREAM_WORDS }, (_, word) => `palavra${word}`).join(' ');
  const base = parallelLineScript({ modules: MODULES, devDelayMs: 0 });
  const turns = base.turns.map((turn) =>
    turn.agent.startsWith('dev:') ? { ...turn, text: streamText, pace_ms: STREAM_PACE_MS } : turn,
  );
  const warmup = 4;
  const criativo = Array.from({ length: 2 * (MESSAGES + warmup) }, () => ({
    agent: 'criativo',
    text: CRIATIVO_ANSWER,
  }));
  const { forja, dispose } = await startForja({ turns: [...turns, ...criativo] }, 4);
  try {
    const busy = await playUpToTheDevs(forja);
    const idleSession = (
      await requestJson(forja, 'POST', `/api/projects/${busy.projectId}/sessions`, {})
    ).body.id as string;
    await requestJson(forja, 'POST', `/api/sessions/${idleSession}/agents/criativo/start`);
    await requestJson(forja, 'POST', `/api/sessions/${busy.sessionId}/dev-handoffs/accept`);
    const devs = parallelModules(MODULES).map((name) => `dev:${name}`);
    const streaming = async () =>
      (await forja.conversation.views.load(busy.sessionId)).state.turns_in_progress.filter((turn) =>
        devs.includes(turn.agent),
      ).length === MODULES;
    for (let wait = 0; !(await streaming()) && wait < 200; wait += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const ask = async (sessionId: string) => {
      const start = performance.now();
      const posted = await forja.conversation.postMessage(
        sessionId,
        'E se tiver café também?',
        'criativo',
      );
      if (!posted.ok || posted.turn === null)
        throw new Error('the message to Criativo was not taken');
      const result = await posted.turn;
      if (result.status !== 'completed') throw new Error(`Criativo's turn ended ${result.status}`);
      return performance.now() - start;
    };
    for (let index = 0; index < warmup; index += 1)
      await ask(busy.sessionId), await ask(idleSession);
    const samples = { idle: [] as number[], busy: [] as number[] };
    let devsAlwaysStreaming = true;
    for (let index = 0; index < MESSAGES; index += 1) {
      samples.busy.push(await ask(busy.sessionId));
      devsAlwaysStreaming &&= await streaming();
      samples.idle.push(await ask(idleSession));
    }
    await forja.conversation.idle(busy.sessionId);
    return { ...samples, devsAlwaysStreaming };
  } finally {
    await dispose();
  }
}
