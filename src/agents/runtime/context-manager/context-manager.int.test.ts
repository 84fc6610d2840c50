import { recordingRequests } from '../../../gateway/providers/testing/index.ts';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createForja, type Forja } from '../../../composition.ts';
import { loadConfig } from '../../../config/config.ts';
import {
  createScriptedProvider,
  estimateRequestTokens,
  type ModelProvider,
  type ModelRequest,
  type ScriptInput,
} from '../../../gateway/providers/index.ts';
import {
  createPostgresGraphStore,
  FIRST_BATCH_TEMPLATES,
  seedTemplates,
} from '../../../memory/index.ts';
import type { Database } from '../../../store/index.ts';
import { testDatabaseEngines } from '../../../store/testing/test-databases.ts';
import { requestJson } from '../../../testing/forja-harness.ts';
import { newSessionThroughApi } from '../../../testing/scripted-forja.ts';
import type { LoopAgent } from '../tool-loop.ts';
import { LEFT_OUT_NOTE } from './create-context-manager.ts';

const WINDOW = 4000;
const BIG_RESULT = `${'linha de log do terminal\n'.repeat(80_000)}FIM`; // ~2 MB

/** An agent whose one tool returns a 2 MB result, like a file read or a terminal dump. */
const readerAgent: LoopAgent = {
  slug: 'reader',
  maxIterations: 3,
  maxOutputTokens: 300,
  buildSystemPrompt: async () => 'You read files.',
  tools: [
    {
      name: 'read_file',
      description: 'Read a file',
      mode: 'direct',
      parameters: z.strictObject({ path: z.string() }),
      run: async () => ({ ok: true, result: BIG_RESULT }),
    },
  ],
};

describe.each(testDatabaseEngines())('the ContextManager on $name', (engine) => {
  const opened: Array<{ forja: Forja; database: Database }> = [];
  afterEach(async () => {
    for (const { forja, database } of opened.splice(0)) {
      await forja.close();
      await database.close();
    }
  });

  async function start(
    script: ScriptInput,
    env: Record<string, string>,
    requests: ModelRequest[] = [],
  ) {
    const loaded = loadConfig(env);
    if (!loaded.ok) throw new Error(loaded.error.message);
    const database = await engine.open();
    const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
      database,
      env,
      provider: recordingRequests(createScriptedProvider({ script }), requests),
      extraAgents: [readerAgent],
    });
    opened.push({ forja, database });
    const { sessionId, projectId } = await newSessionThroughApi(forja);
    return { forja, database, sessionId, projectId };
  }

  async function talk(forja: Forja, sessionId: string, turns: number) {
    for (let n = 1; n <= turns; n += 1) {
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
        text: `Mensagem ${n}: detalhes sobre entregas, horários e sabores do pão da manhã.`,
      });
      await forja.conversation.idle(sessionId);
    }
  }

  it('when the summary fails, sends the most recent messages that fit with a note of how many were left out, and records it', async () => {
    const turns = Array.from({ length: 60 }, (_, n) => ({
      agent: 'criativo',
      text: `Resposta ${n + 1}: anotado, seguimos.`,
    }));
    const requests: ModelRequest[] = [];
    const { forja, database, sessionId } = await start(
      { turns },
      { FORJA_MODEL_CONTEXT_TOKENS: String(WINDOW) },
      requests,
    );
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    await talk(forja, sessionId, 60);

    const events = await forja.eventLog.read(sessionId);
    expect(events.filter((event) => event.type === 'agent.response')).toHaveLength(60);
    const failed = events.filter((event) => event.type === 'context.compaction_failed');
    expect(failed.length).toBeGreaterThan(0);
    const firstFailure = failed[0]!.payload as { agent: string; reason: string; left_out: number };
    // At the threshold nothing needs leaving out yet; past the budget the window starts cutting, and says so.
    expect(firstFailure).toMatchObject({ agent: 'criativo', reason: 'failed', left_out: 0 });
    expect((failed.at(-1)!.payload as { left_out: number }).left_out).toBeGreaterThan(0);
    const answered = requests.filter((request) => request.agent === 'criativo');
    const noted = answered.at(-1)!.messages[0]!;
    expect(noted).toMatchObject({
      role: 'user',
      content: expect.stringMatching(/^\[Nota do sistema: \d+ mensagens anteriores/),
    });
    const leftOut = (failed.at(-1)!.payload as { left_out: number }).left_out;
    expect(noted.content).toBe(LEFT_OUT_NOTE(leftOut, 'o resumo falhou: failed'));
    for (const request of requests)
      expect(estimateRequestTokens(request) + request.maxOutputTokens).toBeLessThanOrEqual(WINDOW);
    // The failed summaries were metered too, as the context manager's, for criativo.
    const rows = await database.query<{ outcome: string }>(
      `select outcome from token_usage where agent = 'context-manager' and on_behalf_of = 'criativo' and session_id = $1`,
      [sessionId],
    );
    expect(rows.rows.length).toBe(failed.length);
    expect(new Set(rows.rows.map((row) => row.outcome))).toEqual(new Set(['error']));
  });

  it('caps a 2 MB tool result in the request with a marker, while the event keeps all of it', async () => {
    const requests: ModelRequest[] = [];
    const script = {
      turns: [
        { agent: 'reader', tool_calls: [{ name: 'read_file', arguments: { path: 'big.log' } }] },
        { agent: 'reader', text: 'Li o arquivo.' },
      ],
    };
    const { forja, sessionId } = await start(script, {}, requests);
    await forja.eventLog.append(sessionId, [
      {
        type: 'agent.activated',
        actor: 'system',
        payload: { v: 1, agent: 'reader', handoff_id: null },
      },
    ]);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'Leia o log.',
    });
    await forja.conversation.idle(sessionId);

    const events = await forja.eventLog.read(sessionId);
    const completed = events.find((event) => event.type === 'tool.completed')!;
    expect((completed.payload as { result: string }).result).toBe(BIG_RESULT);
    const sent = requests[1]!.messages.find((message) => message.role === 'tool')!;
    expect(sent.content.length).toBeLessThan(20_000);
    expect(sent.content).toMatch(
      new RegExp(
        `\\[… \\d+ de ${BIG_RESULT.length} caracteres omitidos aqui; o texto completo está no evento #${completed.seq} …\\]$`,
      ),
    );
    expect(sent.content.startsWith('linha de log do terminal\n')).toBe(true);
    expect(events.at(-2)).toMatchObject({
      type: 'agent.response',
      payload: { text: 'Li o arquivo.' },
    });
  });

  it('refuses a turn, recorded, when the fixed parts of the request leave no room for the conversation', async () => {
    const { forja, sessionId } = await start(
      { turns: [{ agent: 'criativo', text: 'nunca' }] },
      { FORJA_MODEL_CONTEXT_TOKENS: '1024' },
    );
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    await talk(forja, sessionId, 1);
    const last = (await forja.eventLog.read(sessionId)).at(-2)!;
    expect(last).toMatchObject({ type: 'turn.failed', payload: { reason: 'context_window' } });
    expect((last.payload as { message: string }).message).toMatch(
      /window for criativo \(1024 tokens, from FORJA_MODEL_CONTEXT_TOKENS\)/,
    );
  });

  it('summarises with the seeded template when graph_templates_enabled is on', async () => {
    const requests: ModelRequest[] = [];
    const turns: ScriptInput['turns'] = Array.from({ length: 45 }, (_, n) => ({
      agent: 'criativo',
      text: `Resposta ${n + 1}: anotado, seguimos.`,
    }));
    for (let n = 0; n < 5; n += 1)
      turns.push({ agent: 'context-manager', text: 'Resumo: entregas e horários.' });
    const { forja, database, sessionId } = await start(
      { turns },
      { FORJA_MODEL_CONTEXT_TOKENS: String(WINDOW), GRAPH_TEMPLATES_ENABLED: 'true' },
      requests,
    );
    const body = `${FIRST_BATCH_TEMPLATES.find((template) => template.name === 'context-manager-summarize')!.body}\nVERSÃO DO GRAFO`;
    expect(
      await seedTemplates(database, createPostgresGraphStore, [
        { name: 'context-manager-summarize', body },
      ]),
    ).toMatchObject({ ok: true });
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    await talk(forja, sessionId, 45);
    const summarising = requests.find((request) => request.agent === 'context-manager')!;
    expect(summarising.messages[0]!.content).toContain('VERSÃO DO GRAFO');
  });
});
