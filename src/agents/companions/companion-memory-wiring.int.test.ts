import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../../composition.ts';
import { FRAGMENTS_HEADING } from '../../domain/memory/index.ts';
import { createPostgresGraphStore, seedTemplates } from '../../memory/index.ts';
import { startMemoryForja } from '../../memory/testing/start-memory-forja.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson } from '../../testing/forja-harness.ts';

/** Waits for a condition the background workers will make true; the test's own timeout bounds it. */
async function eventually(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

// The companions take the memory as two injected operations (ADR 0235): `triage` and `kickoff`, wired in
// src/composition.ts. This drives them through a running Forja, so the wiring itself is what is checked.
describe.each(testDatabaseEngines())(
  'the companions’ memory, as composition wires it, on $name',
  (engine) => {
    let forja: Forja;
    afterEach(() => forja?.close());

    it("gives the Psicólogo the project's rag_search fragments and the graph's kickoff template", async () => {
      const answer = {
        hypotheses: [{ aspect: 'ritmo', statement: 'Deixa dúvidas para depois', evidence: [2] }],
      };
      const started = await startMemoryForja(engine, {
        env: { PSYCHOLOGIST_ENABLED: 'true', GRAPH_TEMPLATES_ENABLED: 'true' },
        memory: { workers: true, intervalMs: 25 },
        script: {
          turns: [
            {
              agent: 'psicologo',
              text: JSON.stringify(answer),
              expect: { system: [FRAGMENTS_HEADING, 'MODELO DO GRAFO: analise a sessão'] },
            },
          ],
        },
      });
      forja = started.forja;
      await seedTemplates(forja.database, createPostgresGraphStore, [
        {
          name: 'psicologo-kickoff',
          body: 'MODELO DO GRAFO: analise a sessão e responda em JSON.',
        },
      ]);
      const project = await requestJson(forja, 'POST', '/api/projects', { name: 'Padaria' });
      const session = await requestJson(
        forja,
        'POST',
        `/api/projects/${project.body.id}/sessions`,
        {},
      );
      const sessionId = session.body.id as string;
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
        text: 'Quero vender pão de madrugada',
      });
      // What the project's search should bring back (the RAG index takes agent responses and artifacts).
      await forja.eventLog.append(sessionId, [
        {
          type: 'agent.response',
          actor: 'criativo',
          payload: { v: 1, agent: 'criativo', text: 'Ficaram dúvidas em aberto sobre a entrega.' },
        },
      ]);
      await eventually(
        async () =>
          (await forja.memory.ragSearch(project.body.id, { query: 'dúvidas em aberto', k: 3 })).hits
            .length > 0,
      );
      expect(await requestJson(forja, 'POST', `/api/sessions/${sessionId}/end`)).toMatchObject({
        status: 201,
        body: { companions: ['psicologo'] },
      });
      await forja.conversation.idle(sessionId);
      const proposed = (await forja.eventLog.read(sessionId)).filter(
        (event) => event.type === 'hypothesis.proposed',
      );
      expect(proposed.map((event) => event.payload)).toEqual([
        expect.objectContaining({
          statement: 'Deixa dúvidas para depois',
          rag: { degraded: false },
        }),
      ]);
    });
  },
);
