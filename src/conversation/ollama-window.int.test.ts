import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import {
  createScriptedProvider,
  estimateRequestTokens,
  type ModelRequest,
  type ScriptInput,
} from '../gateway/providers/index.ts';
import {
  fromOpenAiRequestBody,
  scriptedWireHandler,
  startOllamaTestServer,
  type OllamaTestServer,
} from '../gateway/providers/testing/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson, startTestForja } from '../testing/forja-harness.ts';
import { newSessionThroughApi } from '../testing/scripted-forja.ts';

const NUM_CTX = 8192;
const MODEL = 'qwen2.5:7b';
const TURNS = 8;
/** About 600 tokens each: compactions come every few turns in an 8,192-token window. */
const message = (n: number) =>
  `Mensagem ${n}: ${'mais detalhes sobre entregas de madrugada, horários e sabores do pão. '.repeat(34)}`;

function script(criativoTurns = TURNS): ScriptInput {
  const turns: ScriptInput['turns'] = [];
  for (let n = 1; n <= criativoTurns; n += 1)
    turns.push({
      agent: 'criativo',
      text: `Resposta ${n}: anotado.`,
      expect: { messages: [`Mensagem ${n}:`] },
    });
  for (let n = 1; n <= TURNS; n += 1)
    turns.push({
      agent: 'context-manager',
      text: `Resumo ${n}: a pessoa descreveu entregas de madrugada.`,
      expect: { messages: ['Conversa:'] },
    });
  return { turns };
}

/** Which agent asked, as the server tells from the request: the ContextManager's summaries say who they are. */
const agentOf = (request: ModelRequest) =>
  request.system.includes('context-manager da Forja') ? 'context-manager' : 'criativo';

/** An Ollama-style server running the model with num_ctx 8192 (the model itself takes 32,768). */
async function startOllama(criativoTurns = TURNS): Promise<OllamaTestServer> {
  const ollama = await startOllamaTestServer({
    models: [{ name: MODEL, numCtx: NUM_CTX, contextLength: 32_768 }],
  });
  ollama.respondWith(
    scriptedWireHandler({
      provider: createScriptedProvider({ script: script(criativoTurns) }),
      wire: 'openai',
      agentOf,
    }),
  );
  return ollama;
}

const chatRequests = (ollama: OllamaTestServer) =>
  ollama.requests.filter((request) => request.path === '/v1/chat/completions');

describe.each(testDatabaseEngines())(
  'an Ollama model run with num_ctx 8,192 on $name',
  (engine) => {
    let forja: Forja | undefined;
    let ollama: OllamaTestServer | undefined;
    afterEach(async () => {
      await forja?.close();
      await ollama?.close();
      forja = undefined;
      ollama = undefined;
    });

    it('shows 8,192 on the context route and keeps every request, summaries too, within it', async () => {
      ollama = await startOllama();
      forja = await startTestForja(engine, {
        env: { FORJA_MODEL: `openai:${MODEL}`, OPENAI_BASE_URL: ollama.baseUrl },
      });
      const { sessionId } = await newSessionThroughApi(forja);
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
      const context = await requestJson(
        forja,
        'GET',
        `/api/sessions/${sessionId}/agents/criativo/context`,
      );
      expect(context.body).toMatchObject({
        model: { provider: 'openai', model: MODEL },
        window: {
          tokens: NUM_CTX,
          source: 'server',
          from: 'Ollama num_ctx',
          truncates_at: NUM_CTX,
        },
      });
      expect(context.body.window.warning).toContain('num_ctx 8192 though the model takes 32768');
      const health = await requestJson(forja, 'GET', '/api/health');
      expect(health.body.model.agents[0]).toMatchObject({
        agent: 'criativo',
        variable: 'FORJA_MODEL',
        model: MODEL,
        reachable: true,
        window: { tokens: NUM_CTX, source: 'server' },
      });

      for (let n = 1; n <= TURNS; n += 1) {
        const posted = await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
          text: message(n),
        });
        expect(posted.status).toBe(201);
        await forja.conversation.idle(sessionId);
      }
      const events = await forja.eventLog.read(sessionId);
      expect(events.filter((event) => event.type === 'turn.failed')).toEqual([]);
      expect(events.filter((event) => event.type === 'agent.response')).toHaveLength(TURNS);
      expect(events.filter((event) => event.type === 'context.compacted').length).toBeGreaterThan(
        0,
      );
      // What the server received, read back from the wire: nothing past num_ctx, nothing cut in silence.
      const received = chatRequests(ollama).map((request) => fromOpenAiRequestBody(request.body));
      expect(received.map(agentOf)).toContain('context-manager');
      for (const request of received)
        expect(estimateRequestTokens(request) + request.maxOutputTokens).toBeLessThanOrEqual(
          NUM_CTX,
        );
      expect(ollama.silentlyCut).toEqual([]);
    }, 120_000);

    it('refuses, and never sends, a request past num_ctx when a setting says the window is larger', async () => {
      ollama = await startOllama(TURNS * 3);
      forja = await startTestForja(engine, {
        env: {
          FORJA_MODEL: `openai:${MODEL}`,
          OPENAI_BASE_URL: ollama.baseUrl,
          FORJA_MODEL_CONTEXT_TOKENS: '32768',
        },
      });
      const { sessionId } = await newSessionThroughApi(forja);
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
      const context = await requestJson(
        forja,
        'GET',
        `/api/sessions/${sessionId}/agents/criativo/context`,
      );
      expect(context.body.window).toMatchObject({
        tokens: 32_768,
        source: 'setting',
        truncates_at: NUM_CTX,
      });
      expect(context.body.window.warning).toMatch(
        /^FORJA_MODEL_CONTEXT_TOKENS says 32768 tokens, but the model's server cuts prompts past 8192/,
      );

      let failed: { message: string } | undefined;
      for (let n = 1; n <= TURNS * 3 && failed === undefined; n += 1) {
        await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
          text: message(n),
        });
        await forja.conversation.idle(sessionId);
        failed = (await forja.eventLog.read(sessionId)).find(
          (event) => event.type === 'turn.failed',
        )?.payload as { message: string } | undefined;
      }
      expect(failed?.message).toMatch(
        new RegExp(
          `^Not sent: this request to openai:${MODEL.replace('.', '\\.')} has about \\d+ input tokens, past the 8192 where its server cuts prompts without saying so \\(Ollama num_ctx\\)`,
        ),
      );
      expect(ollama.silentlyCut).toEqual([]);
      const refused = await forja.database.query<{
        outcome: string;
        input_tokens: string;
        error: string;
      }>(
        `select outcome, input_tokens, error from token_usage where session_id = $1 and error like 'Not sent:%'`,
        [sessionId],
      );
      expect(refused.rows.map((row) => [row.outcome, Number(row.input_tokens)])).toEqual([
        ['error', 0],
      ]);
    }, 120_000);
  },
);
