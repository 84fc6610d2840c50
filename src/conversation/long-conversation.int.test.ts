import { recordingRequests } from '../gateway/providers/testing/index.ts';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { SUMMARY_HEADER } from '../agents/runtime/context-manager/create-context-manager.ts';
import { createForja, type Forja } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import {
  createScriptedProvider,
  estimateRequestTokens,
  type ModelProvider,
  type ModelRequest,
  type ScriptInput,
} from '../gateway/providers/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { newSessionThroughApi } from '../testing/scripted-forja.ts';

const WINDOW = 4000;
const TURNS = 300;
const FACT = 'a padaria se chama Pão da Aurora';

/** The person's message of turn `n`: padded so that compactions come every few turns. */
const message = (n: number) =>
  n === 1
    ? `Olá! Guarde isto: ${FACT}.`
    : `Mensagem ${n}: mais um detalhe sobre entregas, horários e sabores do pão.`;

function script(): ScriptInput {
  const turns: ScriptInput['turns'] = [];
  for (let n = 1; n < TURNS; n += 1)
    turns.push({
      agent: 'criativo',
      text: `Resposta ${n}: anotado, seguimos com o pão.`,
      expect: { messages: [n === 1 ? 'Guarde isto' : `Mensagem ${n}:`] },
    });
  // The last turn "remembers" the fact of turn 1: it reaches the model only through the summary, before the message.
  turns.push({
    agent: 'criativo',
    text: `Lembro: ${FACT}.`,
    expect: { messages: ['[Resumo da conversa até #', FACT, `Mensagem ${TURNS}:`] },
  });
  // More summaries than needed; the test checks how many were taken. The first reads the fact from the
  // conversation itself; each later one reads the summary before it, which carries the fact on.
  for (let n = 1; n <= TURNS; n += 1) {
    const reads =
      n === 1
        ? [`Guarde isto: ${FACT}`]
        : ['Resumo anterior (até aqui):', `Resumo ${n - 1}: a pessoa contou no início que ${FACT}`];
    turns.push({
      agent: 'context-manager',
      text: `Resumo ${n}: a pessoa contou no início que ${FACT} (#3); falamos de entregas e horários.`,
      expect: { messages: reads },
    });
  }
  return { turns };
}

/** The scripted provider, keeping each request it was given (what the model would have read). */

describe.each(testDatabaseEngines())(
  'a 300-turn conversation in a 4,000-token window on $name',
  (engine) => {
    let forja: Forja | undefined;
    afterEach(() => forja?.close());

    it('fits every request, records and meters compactions, rehydrates the point after a restart and keeps the fact of turn 1', async () => {
      const database = await engine.open();
      const loaded = loadConfig({});
      if (!loaded.ok) throw new Error(loaded.error.message);
      const env = { FORJA_MODEL_CONTEXT_TOKENS: String(WINDOW) };
      const scripted = createScriptedProvider({ script: script() });
      const requests: ModelRequest[] = [];
      const start = (provider: ModelProvider) =>
        createForja(loaded.config, pino({ level: 'silent' }), {
          database,
          env,
          provider: recordingRequests(provider, requests),
        });
      try {
        forja = await start(scripted);
        const { sessionId } = await newSessionThroughApi(forja);
        await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
        const compactions = async () =>
          (await forja!.eventLog.read(sessionId, { limit: 10_000 })).filter(
            (event) => event.type === 'context.compacted',
          );
        let restarted = false;
        for (let n = 1; n <= TURNS; n += 1) {
          const posted = await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
            text: message(n),
          });
          expect(posted.status).toBe(201);
          await forja.conversation.idle(sessionId);
          // Restart once, right after a compaction: the next turn must use that point, not summarise again.
          if (
            !restarted &&
            n > 150 &&
            // …, context.compacted, agent.response, turn.ended: the last turn compacted first.
            (await forja.eventLog.read(sessionId, { limit: 10_000 })).at(-3)?.type ===
              'context.compacted'
          ) {
            restarted = true;
            const before = (await compactions()).length;
            await forja.close();
            forja = await start(
              createScriptedProvider({ script: script(), startAt: scripted.position() }),
            );
            const sent = requests.length;
            await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
              text: message(n + 1),
            });
            await forja.conversation.idle(sessionId);
            n += 1;
            expect((await compactions()).length).toBe(before);
            const latest = (await compactions()).at(-1)!.payload as { through_seq: number };
            expect(requests.slice(sent).map((request) => request.agent)).toEqual(['criativo']);
            expect(requests.at(-1)!.messages[0]).toMatchObject({
              role: 'user',
              content: expect.stringContaining(SUMMARY_HEADER(latest.through_seq)),
            });
          }
        }
        expect(restarted).toBe(true);

        // Every request fits the window with its answer.
        for (const request of requests)
          expect(estimateRequestTokens(request) + request.maxOutputTokens).toBeLessThanOrEqual(
            WINDOW,
          );
        const events = await forja.eventLog.read(sessionId, { limit: 10_000 });
        const compacted = events.filter((event) => event.type === 'context.compacted');
        expect(compacted.length).toBeGreaterThan(10);
        expect(events.filter((event) => event.type === 'context.compaction_failed')).toEqual([]);
        expect(events.filter((event) => event.type === 'agent.response')).toHaveLength(TURNS);
        // Each compaction moved the point forward, and was one metered call for criativo.
        const throughSeqs = compacted.map(
          (event) => (event.payload as { through_seq: number }).through_seq,
        );
        expect(throughSeqs).toEqual([...throughSeqs].sort((a, b) => a - b));
        const usage = await database.query<{
          agent: string;
          on_behalf_of: string | null;
          calls: string;
        }>(
          `select agent, on_behalf_of, count(*) as calls from token_usage where session_id = $1 and outcome = 'completed' group by agent, on_behalf_of order by agent`,
          [sessionId],
        );
        expect(usage.rows.map((row) => ({ ...row, calls: Number(row.calls) }))).toEqual([
          { agent: 'context-manager', on_behalf_of: 'criativo', calls: compacted.length },
          { agent: 'criativo', on_behalf_of: null, calls: TURNS },
        ]);

        // The last request: the summary (carrying the fact of turn 1), then only messages after the point.
        const last = requests.filter((request) => request.agent === 'criativo').at(-1)!;
        const point = compacted.at(-1)!.payload as { through_seq: number };
        expect(last.messages[0]).toMatchObject({ content: expect.stringContaining(FACT) });
        const sentSeqs = last.messages
          .slice(1)
          .flatMap((sent) =>
            sent.role === 'user' ? [Number(/^\[#(\d+)\]/.exec(sent.content)?.[1])] : [],
          );
        expect(sentSeqs.length).toBeGreaterThan(0);
        expect(Math.min(...sentSeqs)).toBeGreaterThan(point.through_seq);
        expect(JSON.stringify(last.messages)).not.toContain('Mensagem 2:');
        expect((events.at(-2)!.payload as { text: string }).text).toBe(`Lembro: ${FACT}.`);
      } finally {
        await forja?.close();
        forja = undefined;
        await database.close();
      }
    }, 120_000);
  },
);
