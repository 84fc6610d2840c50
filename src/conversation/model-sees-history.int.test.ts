import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createForja, type Forja } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import { reserveCall } from '../gateway/metering/reserve-call.ts';
import {
  createScriptedProvider,
  type ModelRequest,
  type ScriptInput,
} from '../gateway/providers/index.ts';
import { recordingRequests } from '../gateway/providers/testing/recording-provider.ts';
import { UPDATE_HEADER } from '../harness/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson, startTestForja } from '../testing/forja-harness.ts';
import { newSessionThroughApi, startScriptedForja } from '../testing/scripted-forja.ts';

/**
 * What the model is sent, checked by the scripted model's `expect`: a turn carries the conversation so far,
 * also after a restart, and Criativo's system prompt carries the rules recorded before it. These fail when
 * history is dropped (the stateless-echo bug of record ADR 0008).
 */
const RULE = {
  type: 'business_rule',
  data: { title: 'Entrega antes das 6h', statement: 'Toda entrega acontece antes das 6h.' },
  origin: [7],
};

/** What ended the session's last turn: the event before its `turn.ended`, the log's last. */
const lastEvent = async (forja: Forja, sessionId: string) => {
  const [ending, ended] = (await forja.eventLog.read(sessionId)).slice(-2);
  expect(ended?.type).toBe('turn.ended');
  return ending!;
};

describe.each(testDatabaseEngines())('what the model sees, on $name', (engine) => {
  let forja: Forja | undefined;
  afterEach(async () => {
    await forja?.close();
    forja = undefined;
  });

  it("sends Criativo's second turn the first turn's user and assistant messages", async () => {
    const started = await startScriptedForja(engine, {
      turns: [
        {
          agent: 'criativo',
          text: 'Que ideia boa! Quem vai comprar o pão?',
          expect: { messages: ['user: [#3] Quero vender pão de madrugada'] },
        },
        {
          agent: 'criativo',
          text: 'Vizinhos, anotado.',
          expect: {
            messages: [
              'user: [#3] Quero vender pão de madrugada',
              'assistant: Que ideia boa! Quem vai comprar o pão?',
              'user: [#7] Os vizinhos',
            ],
          },
        },
      ],
    });
    forja = started.forja;
    const { sessionId } = await newSessionThroughApi(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    for (const text of ['Quero vender pão de madrugada', 'Os vizinhos do bairro']) {
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text });
      await forja.conversation.idle(sessionId);
    }
    expect(await lastEvent(forja, sessionId)).toMatchObject({
      type: 'agent.response',
      payload: { text: 'Vizinhos, anotado.' },
    });
    started.provider.assertAllTurnsConsumed();
  });

  it("puts a business rule recorded in one call into Criativo's system prompt of the next, after the history", async () => {
    const requests: ModelRequest[] = [];
    const provider = createScriptedProvider({
      script: {
        turns: [
          { agent: 'criativo', text: 'Quem compra?' },
          {
            agent: 'criativo',
            text: 'Vou registrar essa regra.',
            tool_calls: [{ name: 'emit_artifact', arguments: RULE }],
            expect: { tools: ['emit_artifact'] },
          },
          {
            // The turn that recorded ended there (ADR 0380): the next message's call carries the recorded call
            // with its result, in a valid order, before the message; the rule comes after the history, as what
            // changed in the lane's pinned system prompt (ADR 0430).
            agent: 'criativo',
            text: 'Regra registrada.',
            expect: {
              system: ['Entrega antes das 6h: Toda entrega acontece antes das 6h.'],
              messages: [
                '[#3] Quero vender pão',
                'assistant: Quem compra?',
                '[#7] Tudo chega antes das 6h',
                'assistant: Vou registrar essa regra.',
                'emit_artifact(',
                'tool: Recorded business_rule.',
                '[#14] E o preço?',
                `user: ${UPDATE_HEADER}`,
                '## regras_negocio\n### regra #',
                'Entrega antes das 6h: Toda entrega acontece antes das 6h.',
              ],
            },
          },
        ],
      },
    });
    forja = await startTestForja(engine, { provider: recordingRequests(provider, requests) });
    const started = { forja, provider };
    const { sessionId } = await newSessionThroughApi(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    for (const text of ['Quero vender pão de madrugada', 'Tudo chega antes das 6h', 'E o preço?']) {
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text });
      await forja.conversation.idle(sessionId);
    }
    expect(await lastEvent(forja, sessionId)).toMatchObject({
      type: 'agent.response',
      payload: { text: 'Regra registrada.' },
    });
    started.provider.assertAllTurnsConsumed();
    // Every byte before the update repeats the call before: the pinned prompt and the history.
    const [, second, third] = requests;
    expect(third?.system).toBe(second?.system);
    expect(third?.system).not.toContain('Toda entrega acontece');
    expect(third?.messages.slice(0, second?.messages.length)).toEqual(second?.messages);
  });

  it('after a restart in the middle of a turn, resumes it with the next scripted turn and the whole history', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'forja-history-'));
    const database = await engine.open();
    try {
      const script: ScriptInput = {
        turns: [
          {
            agent: 'criativo',
            text: 'Quem vai comprar o pão?',
            expect: { messages: ['[#3] Quero vender pão de madrugada'] },
          },
          {
            agent: 'criativo',
            text: 'Resposta depois da volta.',
            expect: {
              messages: [
                'user: [#3] Quero vender pão de madrugada',
                'assistant: Quem vai comprar o pão?',
                'user: [#7] Antes da queda',
              ],
            },
          },
        ],
      };
      const scriptPath = join(directory, 'script.json');
      await writeFile(scriptPath, JSON.stringify(script));
      const loaded = loadConfig({ FORJA_DATA_DIR: directory });
      if (!loaded.ok) throw new Error(loaded.error.message);
      const start = () =>
        createForja(loaded.config, pino({ level: 'silent' }), {
          database,
          env: { FORJA_MODEL: `scripted:${scriptPath}` },
        });

      const before = await start();
      const { projectId, sessionId } = await newSessionThroughApi(before);
      await requestJson(before, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
      await requestJson(before, 'POST', `/api/sessions/${sessionId}/messages`, {
        text: 'Quero vender pão de madrugada',
      });
      await before.conversation.idle(sessionId);
      // What a process killed during the second call leaves: the message, the turn's start, an open reservation.
      await before.eventLog.append(sessionId, [
        { type: 'chat.message', actor: 'user', payload: { v: 1, text: 'Antes da queda' } },
        {
          type: 'turn.started',
          actor: 'criativo',
          payload: { v: 1, agent: 'criativo', turn_id: 'turn-lost', kind: 'message' },
        },
      ]);
      await reserveCall(
        database,
        { projectId, sessionId, agent: 'criativo', provider: 'scripted', model: scriptPath },
        100,
      );
      await before.close();

      forja = await start();
      await Promise.all(
        (await forja.conversation.resumeInterruptedTurns()).map((turn) => turn.result),
      );
      expect(await lastEvent(forja, sessionId)).toMatchObject({
        type: 'agent.response',
        payload: { text: 'Resposta depois da volta.', turn_id: 'turn-lost' },
      });
    } finally {
      await forja?.close();
      forja = undefined;
      await database.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
