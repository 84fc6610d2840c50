import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { CRIATIVO_MAX_OUTPUT_TOKENS } from '../agents/criativo/criativo-agent.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { newSessionThroughApi, startScriptedForja } from '../testing/scripted-forja.ts';

/** Each agent kind's output cap reaches its requests: the agent's default, or FORJA_MODEL_OUTPUT_TOKENS_<AGENT>. */
describe.each(testDatabaseEngines())(
  'the output cap of a request on $name',
  { timeout: 120_000 },
  (engine) => {
    let forja: Forja | undefined;
    afterEach(async () => {
      await forja?.close();
      forja = undefined;
    });

    async function oneTurn(maxOutputTokens: number, env: Record<string, string>) {
      const started = await startScriptedForja(
        engine,
        {
          turns: [
            {
              agent: 'criativo',
              text: 'Quem compra?',
              expect: { max_output_tokens: maxOutputTokens },
            },
          ],
        },
        { env },
      );
      forja = started.forja;
      const { sessionId } = await newSessionThroughApi(forja);
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text: 'Pão' });
      await forja.conversation.idle(sessionId);
      // The answer, then the turn's end (ADR 0422).
      const last = (await forja.eventLog.read(sessionId)).at(-2);
      started.provider.assertAllTurnsConsumed();
      return last;
    }

    it("carries the agent's default when nothing is set", async () => {
      expect(CRIATIVO_MAX_OUTPUT_TOKENS).toBe(2048);
      expect(await oneTurn(2048, {})).toMatchObject({
        type: 'agent.response',
        payload: { text: 'Quem compra?' },
      });
    });

    it("carries the kind's setting, and another kind's setting does not touch it", async () => {
      const env = {
        FORJA_MODEL_OUTPUT_TOKENS_CRIATIVO: '3000',
        FORJA_MODEL_OUTPUT_TOKENS_PO: '30000',
      };
      expect(await oneTurn(3000, env)).toMatchObject({
        type: 'agent.response',
        payload: { text: 'Quem compra?' },
      });
    });
  },
);
