import { recordingRequests } from '../../src/gateway/providers/testing/index.ts';
import pino from 'pino';
import { z } from 'zod';
import { defineTool } from '../../src/agents/runtime/agent-tool.ts';
import type { LoopAgent } from '../../src/agents/runtime/tool-loop.ts';
import { createForja, type Forja } from '../../src/composition.ts';
import { loadConfig } from '../../src/config/config.ts';
import {
  createScriptedProvider,
  estimateRequestTokens,
  type ModelProvider,
  type ModelRequest,
  type ScriptInput,
} from '../../src/gateway/providers/index.ts';
import { SESSION_EVENTS } from '../../src/domain/conversation/index.ts';
import { migrate } from '../../src/store/migrations/migrate.ts';
import { openPgliteDatabase } from '../../src/store/pglite-database.ts';
import { createProject, createSession, type Database } from '../../src/store/index.ts';
import type { BenchReport } from '../lib/bench-report.ts';
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

const CALLS = 20;
const WINDOW = 16_000;
const ROUNDS = 2;

/** A module file of `lines` lines, different per call, like the code a dev writes. */
const moduleFile = (call: number, lines: number) =>
  Array.from(
    { length: lines },
    (_, line) =>
      `export function rule${call}_${line}(pedido) { return pedido.prazo <= ${line + call} && pedido.itens.length > 0; }`,
  ).join('\n');
/** A check's output: TAP lines of a run, as `node --test` prints them. */
const checkOutput = (call: number) =>
  Array.from(
    { length: 40 },
    (_, test) => `ok ${test + 1} - regra ${call}.${test} respeita o prazo`,
  ).join('\n');

/** A dev-like agent: writes files and runs its check, one call after another, in one task. */
const devLike: LoopAgent = {
  slug: 'dev-like',
  maxIterations: CALLS + 2,
  maxOutputTokens: 2048,
  buildSystemPrompt: async () =>
    'Você é um dev. Escreva os arquivos da sua tarefa e rode o check até passar.',
  tools: [
    defineTool({
      name: 'write_file',
      description: 'Write a file of the worktree',
      mode: 'direct',
      parameters: z.strictObject({ path: z.string(), content: z.string() }),
      run: async ({ path, content }) => ({
        ok: true,
        result: `wrote ${path} (${content.length} bytes)`,
      }),
    }),
    defineTool({
      name: 'run_check',
      description: "Run the module's check",
      mode: 'direct',
      parameters: z.strictObject({}),
      run: async () => ({ ok: true, result: checkOutput(1) }),
    }),
  ],
};

function script(): ScriptInput {
  const calls = Array.from({ length: CALLS }, (_, call) =>
    call % 3 === 2
      ? {
          agent: 'dev-like',
          text: 'Rodando o check.',
          tool_calls: [{ name: 'run_check', arguments: {} }],
        }
      : {
          agent: 'dev-like',
          tool_calls: [
            {
              name: 'write_file',
              arguments: { path: `src/regra-${call}.js`, content: moduleFile(call, 40) },
            },
          ],
        },
  );
  const summaries = Array.from({ length: CALLS }, () => ({
    agent: 'context-manager',
    text: 'Resumo: o dev escreveu os arquivos src/regra-*.js da tarefa e o check passou em todas as rodadas.',
  }));
  return { turns: [...calls, { agent: 'dev-like', text: 'Tarefa feita.' }, ...summaries] };
}

type Variant = 'lean, then summary (today)' | 'summary only (before)' | 'no compaction';
const VARIANTS: Variant[] = [
  'lean, then summary (today)',
  'summary only (before)',
  'no compaction',
];

/**
 * The requests of one dev lane over a 20-call task (files of ~4 KB written, a check's output read every third
 * call) in a 16,000-token window, sent through the production path (HTTP message, tool loop, ContextManager,
 * gateway, scripted model): with the lean compaction of ADR 0326, with summaries alone as before it, and with a
 * window so large nothing is compacted. The three run interleaved, round by round, on one embedded PGlite.
 */
export async function run(): Promise<BenchReport> {
  const database = await openPgliteDatabase();
  await migrate(database);
  const samples = new Map<Variant, ReturnType<typeof measure>[]>();
  try {
    for (let round_ = 0; round_ < ROUNDS; round_ += 1)
      for (const variant of VARIANTS) {
        const list = samples.get(variant) ?? [];
        list.push(measure(await oneTask(database, variant)));
        samples.set(variant, list);
      }
  } finally {
    await database.close();
  }
  return {
    name: 'dev-request-size',
    rows: VARIANTS.map((variant) => ({ variant, ...samples.get(variant)![0]! })),
    notes: [
      `${CALLS} calls of one dev task, window ${WINDOW} tokens; every figure is deterministic (the ${ROUNDS} interleaved rounds agree).`,
      'input tokens: what the task sent in all, its summarising calls included (the ContextManager is metered too).',
    ],
  };
}

async function oneTask(database: Database, variant: Variant): Promise<ModelRequest[]> {
  const requests: ModelRequest[] = [];
  const env = {
    FORJA_MODEL_CONTEXT_TOKENS: String(variant === 'no compaction' ? 10_000_000 : WINDOW),
  };
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(loaded.error.message);
  const forja: Forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    database,
    env,
    provider: recordingRequests(createScriptedProvider({ script: script() }), requests),
    extraAgents: [devLike],
    memory: { workers: false },
    ...(variant === 'summary only (before)' ? { contextManager: { lean: false } } : {}),
  });
  try {
    const project = await createProject(database, { name: `bench ${variant}` });
    const session = await createSession(database, { projectId: project.id, title: 'dev task' });
    await forja.eventLog.append(session.id, [
      SESSION_EVENTS.agentActivated.create('system', { v: 1, agent: 'dev-like', handoff_id: null }),
    ]);
    const response = await forja.app.request(`/api/sessions/${session.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Implemente as regras do módulo.' }),
    });
    if (response.status !== 201) throw new Error(`message refused: ${response.status}`);
    await forja.conversation.idle(session.id);
  } finally {
    await forja.close();
  }
  return requests;
}

function measure(requests: ModelRequest[]) {
  const dev = requests.filter((request) => request.agent === 'dev-like');
  const kb = (request: ModelRequest) => JSON.stringify(request).length / 1024;
  const sizes = dev.map(kb);
  return {
    dev_calls: dev.length,
    'first request KB': round(sizes[0] ?? 0, 1),
    'largest request KB': round(Math.max(...sizes), 1),
    'last request KB': round(sizes.at(-1) ?? 0, 1),
    'summarising calls': requests.length - dev.length,
    'input tokens (task)': requests.reduce(
      (sum, request) => sum + estimateRequestTokens(request),
      0,
    ),
  };
}
