import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../../composition.ts';
import {
  chunkText,
  embedLocally,
  LOCAL_EMBEDDER_NAME,
  type IndexedChunk,
} from '../../memory/index.ts';
import { createProject } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson } from '../../testing/forja-harness.ts';
import { newSessionThroughApi, startScriptedForja } from '../../testing/scripted-forja.ts';
import { devAgent } from './dev-agent.ts';
import { openLineFixture, type LineFixture } from './test-support/line-fixture.ts';

describe.each(testDatabaseEngines())(
  'the dev agents rag_search and rag_feedback on $name',
  (engine) => {
    let fixture: LineFixture | undefined;
    let forja: Forja | undefined;
    afterEach(async () => {
      await fixture?.close();
      await forja?.close();
      fixture = undefined;
      forja = undefined;
    });

    const dev = { agent: 'dev:pedidos', module: 'pedidos' };
    const chunksOf = (projectId: string, sourceId: string, text: string): IndexedChunk[] =>
      chunkText(text).map((piece, chunkIndex) => ({
        id: `${sourceId}#${chunkIndex}`,
        projectId,
        sourceKind: 'artifact' as const,
        sourceId,
        sourceLabel: `artifact.business_rule ${sourceId}`,
        chunkIndex,
        text: piece,
        embedder: LOCAL_EMBEDDER_NAME,
        embedding: embedLocally(piece),
      }));

    it('a scripted dev searches its own project only, and records feedback on the fragments it was shown', async () => {
      const script = {
        turns: [
          {
            agent: 'dev:pedidos',
            tool_calls: [
              { name: 'rag_search', arguments: { query: 'entregas antes do amanhecer' } },
            ],
          },
          {
            agent: 'dev:pedidos',
            tool_calls: [
              {
                name: 'rag_feedback',
                arguments: {
                  query: 'entregas antes do amanhecer',
                  helpful: ['rule-1#0'],
                  not_helpful: ['secret-1#0'],
                },
              },
            ],
          },
          {
            agent: 'dev:pedidos',
            tool_calls: [
              {
                name: 'rag_feedback',
                arguments: { query: 'entregas antes do amanhecer', helpful: ['rule-1#0'] },
              },
            ],
          },
          { agent: 'dev:pedidos', text: 'Entendido: entrega antes das 6h.' },
        ],
      };
      ({ forja } = await startScriptedForja(engine, script));
      const { projectId, sessionId } = await newSessionThroughApi(forja);
      const other = await createProject(forja.database, { name: 'Outro' });
      await forja.memory.vectorIndex.upsert([
        ...chunksOf(projectId, 'rule-1', 'Toda entrega acontece antes das 6h da manhã'),
        ...chunksOf(projectId, 'rule-2', 'O pagamento é por assinatura mensal'),
        ...chunksOf(other.id, 'secret-1', 'Entrega antes das 6h do projeto de outra pessoa'),
      ]);
      // The dev is not user-started: open it as an accepted handoff would.
      await forja.eventLog.append(sessionId, [
        {
          type: 'agent.activated',
          actor: 'system',
          payload: { v: 1, agent: 'dev:pedidos', handoff_id: null },
        },
      ]);
      expect(
        (
          await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
            text: 'Quando entregamos?',
          })
        ).status,
      ).toBe(201);
      await forja.conversation.idle(sessionId);

      const events = await forja.eventLog.read(sessionId);
      const results = events
        .filter((event) => event.type === 'tool.completed')
        .map((event) => event.payload as { tool: string; ok: boolean; result: string });
      expect(results.map((result) => [result.tool, result.ok])).toEqual([
        ['rag_search', true],
        ['rag_feedback', false],
        ['rag_feedback', true],
      ]);
      expect(results[0]!.result).toContain('[id: rule-1#0] artifact.business_rule rule-1');
      expect(results[0]!.result).not.toContain('secret-1');
      expect(results[1]!.result).toContain(
        'secret-1#0 is not the id of a fragment rag_search showed you',
      );
      const feedback = events.filter((event) => event.type === 'rag.feedback');
      expect(feedback.map((event) => [event.actor, event.payload])).toEqual([
        [
          'dev:pedidos',
          { v: 1, query: 'entregas antes do amanhecer', helpful: ['rule-1#0'], not_helpful: [] },
        ],
      ]);
    });

    it('are the dev tools the record lists, direct', async () => {
      fixture = await openLineFixture(engine);
      const tools = devAgent(fixture.line, 'pedidos').tools;
      expect(
        tools.filter((tool) => tool.name.startsWith('rag_')).map((tool) => [tool.name, tool.mode]),
      ).toEqual([
        ['rag_search', 'direct'],
        ['rag_feedback', 'direct'],
      ]);
    });

    it('refuses bad arguments with the field and the rule, and says when nothing matches', async () => {
      fixture = await openLineFixture(engine);
      const tools = devAgent(fixture.line, 'pedidos').tools;
      expect(await fixture.call(tools, 'rag_search', { query: '  ' }, dev)).toMatchObject({
        ok: false,
        result: expect.stringContaining('query'),
      });
      expect(await fixture.call(tools, 'rag_search', { query: 'x', k: 500 }, dev)).toMatchObject({
        ok: false,
        result: expect.stringContaining('at most 20'),
      });
      expect(
        await fixture.call(tools, 'rag_search', { query: 'zebra listrada' }, dev),
      ).toMatchObject({
        ok: true,
        result: expect.stringContaining('No fragment of this project matches'),
      });
    });
  },
);
