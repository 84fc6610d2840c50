import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { newSessionThroughApi, startScriptedForja } from '../testing/scripted-forja.ts';

describe.each(testDatabaseEngines())(
  'a scripted turn that expects what the call does not carry, on $name',
  (engine) => {
    let forja: Forja;
    afterEach(() => forja?.close());

    it('ends the turn in turn.failed naming the turn, what was expected and what was received', async () => {
      const started = await startScriptedForja(engine, {
        turns: [
          {
            agent: 'criativo',
            text: 'Never streamed.',
            expect: { messages: ['Quero vender pão', 'pão de queijo'] },
          },
        ],
      });
      forja = started.forja;
      const { sessionId } = await newSessionThroughApi(forja);
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
        text: 'Quero vender pão de madrugada',
      });
      await forja.conversation.idle(sessionId);
      const last = (await forja.eventLog.read(sessionId)).at(-2)!;
      expect(last).toMatchObject({
        type: 'turn.failed',
        payload: { agent: 'criativo', reason: 'provider_error' },
      });
      expect((last.payload as { message: string }).message).toBe(
        "scripted model: the call does not match turns[0] (criativo's turn 1) of in-memory script: " +
          'expected the messages to contain "pão de queijo" after "Quero vender pão"; received 1 message: "user: [#3] Quero vender pão de madrugada"',
      );
    });
  },
);
