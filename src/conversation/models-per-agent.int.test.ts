import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createForja, type Forja } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import { createScriptedProvider, type ScriptInput } from '../gateway/providers/index.ts';
import {
  scriptedWireHandler,
  startOllamaTestServer,
  startVllmTestServer,
  type SseTestServer,
} from '../gateway/providers/testing/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';
import { ARQUITETO, UP_TO_ARQUITETO } from './testing/production-line-script.ts';

const DEV_MODEL = 'qwen2.5-coder:7b';
const SUMMARY_MODEL = 'Qwen/Qwen2.5-7B-Instruct';
/** About 6,000 tokens of notes per write: three of them pass the dev's compaction threshold. */
const notes = (n: number) =>
  `# Notas ${n}\n\n${'O catálogo lista os pães do dia com preço e foto. '.repeat(480)}`;

/** The dev's own model, on an Ollama-style server: three large writes, then an answer read after the summary. */
const DEV_SCRIPT: ScriptInput = {
  turns: [
    {
      agent: 'dev:catalogo',
      tool_calls: [
        { name: 'write_file', arguments: { path: 'docs/notas-1.md', content: notes(1) } },
      ],
      expect: { tools: ['write_file', 'finish_task'] },
    },
    {
      agent: 'dev:catalogo',
      tool_calls: [
        { name: 'write_file', arguments: { path: 'docs/notas-2.md', content: notes(2) } },
      ],
    },
    {
      agent: 'dev:catalogo',
      tool_calls: [
        { name: 'write_file', arguments: { path: 'docs/notas-3.md', content: notes(3) } },
      ],
    },
    {
      agent: 'dev:catalogo',
      text: 'Notas escritas; sigo com o catálogo.',
      expect: { messages: ['[Resumo da conversa até #', 'Resumo do dev: escreveu as notas 1'] },
    },
  ],
};

/** The ContextManager's own model, on a vLLM-style server. */
const SUMMARY_SCRIPT: ScriptInput = {
  turns: [
    {
      agent: 'context-manager',
      text: 'Resumo do dev: escreveu as notas 1 do catálogo em docs/notas-1.md.',
      expect: { system: ['context-manager da Forja'], messages: ['Conversa:', 'write_file'] },
    },
  ],
};

describe.each(testDatabaseEngines())('a model per agent on $name', (engine) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('sends the dev and the ContextManager to their own servers, the rest to the script; usage shows each model', {
    timeout: 240_000,
  }, async () => {
    const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-models-'));
    cleanups.push(() => rm(dataDirectory, { recursive: true, force: true }));
    const scriptPath = join(dataDirectory, 'line.json');
    await writeFile(scriptPath, JSON.stringify({ turns: [...UP_TO_ARQUITETO, ...ARQUITETO] }));
    const ollama = await startOllamaTestServer({
      models: [{ name: DEV_MODEL, numCtx: 32_768, contextLength: 32_768 }],
    });
    cleanups.push(() => ollama.close());
    ollama.respondWith(
      scriptedWireHandler({
        provider: createScriptedProvider({ script: DEV_SCRIPT }),
        wire: 'openai',
        agentOf: () => 'dev:catalogo',
      }),
    );
    const vllm = await startVllmTestServer({
      models: [{ id: SUMMARY_MODEL, maxModelLen: 16_384 }],
    });
    cleanups.push(() => vllm.close());
    vllm.respondWith(
      scriptedWireHandler({
        provider: createScriptedProvider({ script: SUMMARY_SCRIPT }),
        wire: 'openai',
        agentOf: () => 'context-manager',
      }),
    );
    const env = {
      FORJA_MODEL: `scripted:${scriptPath}`,
      FORJA_MODEL_DEV: `openai:${DEV_MODEL}`,
      FORJA_MODEL_DEV_BASE_URL: ollama.baseUrl,
      FORJA_MODEL_CONTEXT_MANAGER: `openai:${SUMMARY_MODEL}`,
      FORJA_MODEL_CONTEXT_MANAGER_BASE_URL: vllm.baseUrl,
    };
    const loaded = loadConfig({ FORJA_DATA_DIR: dataDirectory });
    if (!loaded.ok) throw new Error(loaded.error.message);
    const database = await engine.open();
    cleanups.push(() => database.close());
    // Summaries only (no lean compaction first, ADR 0326): the ContextManager's own model must be called.
    const forja: Forja = await createForja(loaded.config, pino({ level: 'silent' }), {
      env,
      database,
      contextManager: { lean: false },
    });
    cleanups.push(() => forja.close());

    const health = (await requestJson(forja, 'GET', '/api/health')).body.model;
    expect(
      health.agents.map(
        (agent: { agent: string; variable: string; provider: string; model: string }) => [
          agent.agent,
          agent.variable,
          agent.provider,
          agent.model,
        ],
      ),
    ).toEqual([
      ['criativo', 'FORJA_MODEL', 'scripted', scriptPath],
      ['po', 'FORJA_MODEL', 'scripted', scriptPath],
      ['arquiteto', 'FORJA_MODEL', 'scripted', scriptPath],
      ['psicologo', 'FORJA_MODEL', 'scripted', scriptPath],
      ['anamnese', 'FORJA_MODEL', 'scripted', scriptPath],
      ['dev', 'FORJA_MODEL_DEV', 'openai', DEV_MODEL],
      ['context-manager', 'FORJA_MODEL_CONTEXT_MANAGER', 'openai', SUMMARY_MODEL],
    ]);

    const { sessionId } = await playUpToTheDevs(forja);
    const handoffs = (await requestJson(forja, 'GET', `/api/sessions/${sessionId}/handoffs`)).body
      .handoffs as Array<{ id: string; to_agent: string; status: string }>;
    const toCatalogo = handoffs.find((handoff) => handoff.to_agent === 'dev:catalogo')!;
    expect((await requestJson(forja, 'POST', `/api/handoffs/${toCatalogo.id}/accept`)).status).toBe(
      200,
    );
    await forja.conversation.idle(sessionId);

    const events = await forja.eventLog.read(sessionId, { limit: 10_000 });
    expect(events.filter((event) => event.type === 'turn.failed')).toEqual([]);
    expect(
      events.filter((event) => event.type === 'context.compacted').map((event) => event.payload),
    ).toEqual([expect.objectContaining({ agent: 'dev:catalogo' })]);
    // The servers saw their own agents' requests, for their own models, and nothing else.
    const chats = (server: SseTestServer) =>
      server.requests.filter((request) => request.path === '/v1/chat/completions');
    expect(chats(ollama).map((request) => (request.body as { model: string }).model)).toEqual([
      DEV_MODEL,
      DEV_MODEL,
      DEV_MODEL,
      DEV_MODEL,
    ]);
    expect(chats(vllm).map((request) => (request.body as { model: string }).model)).toEqual([
      SUMMARY_MODEL,
    ]);
    expect(ollama.silentlyCut).toEqual([]);

    const usage = (await requestJson(forja, 'GET', `/api/sessions/${sessionId}/usage`)).body
      .by_agent_and_model as Array<{
      agent: string;
      provider: string;
      model: string;
      calls: number;
    }>;
    expect(
      usage.map((line) => [line.agent, line.provider, line.model, Number(line.calls)]),
    ).toEqual([
      ['arquiteto', 'scripted', scriptPath, ARQUITETO.length],
      ['context-manager', 'openai', SUMMARY_MODEL, 1],
      ['criativo', 'scripted', scriptPath, expect.any(Number)],
      ['dev:catalogo', 'openai', DEV_MODEL, 4],
      ['po', 'scripted', scriptPath, expect.any(Number)],
    ]);
    const onBehalf = await database.query<{ on_behalf_of: string }>(
      `select on_behalf_of from token_usage where session_id = $1 and agent = 'context-manager'`,
      [sessionId],
    );
    expect(onBehalf.rows).toEqual([{ on_behalf_of: 'dev:catalogo' }]);
  });
});
