import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { startMemoryForja } from './testing/start-memory-forja.ts';

/** Waits for a condition the background workers will make true; the test's own timeout bounds it. */
async function eventually(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.each(testDatabaseEngines())('the memory workers of a running Forja on $name', (engine) => {
  let forja: Forja;
  afterEach(() => forja?.close());

  it('project appends to the graph and index them for RAG in the background, and stop on close', async () => {
    ({ forja } = await startMemoryForja(engine, { memory: { workers: true, intervalMs: 25 } }));
    const project = await requestJson(forja, 'POST', '/api/projects', { name: 'Padaria' });
    const session = await requestJson(
      forja,
      'POST',
      `/api/projects/${project.body.id}/sessions`,
      {},
    );
    await requestJson(forja, 'POST', `/api/sessions/${session.body.id}/messages`, {
      text: 'Pão de madrugada',
    });
    await forja.eventLog.append(session.body.id, [
      {
        type: 'agent.response',
        actor: 'criativo',
        payload: { v: 1, agent: 'criativo', text: 'Entrega antes das seis da manhã.' },
      },
    ]);
    const graph = forja.memory.graphFor(forja.database);
    await eventually(
      async () => (await graph.findNode({ label: 'Event', key: `${session.body.id}#3` })) !== null,
    );
    await eventually(
      async () =>
        (await forja.memory.ragSearch(project.body.id, { query: 'entrega seis da manhã', k: 3 }))
          .hits.length > 0,
    );
    expect(
      (await graph.findNode({ label: 'Event', key: `${session.body.id}#2` }))?.properties,
    ).toMatchObject({ type: 'chat.message', excerpt: 'Pão de madrugada' });
  });

  it('drain as soon as an append commits, woken by its NOTIFY, without waiting for the next poll', async () => {
    // An interval no test would wait for: only the wake can make the graph and the index catch up.
    ({ forja } = await startMemoryForja(engine, {
      memory: { workers: true, intervalMs: 3_600_000 },
    }));
    const project = await requestJson(forja, 'POST', '/api/projects', { name: 'Padaria' });
    const session = await requestJson(
      forja,
      'POST',
      `/api/projects/${project.body.id}/sessions`,
      {},
    );
    const graph = forja.memory.graphFor(forja.database);
    await requestJson(forja, 'POST', `/api/sessions/${session.body.id}/messages`, {
      text: 'Pão de madrugada',
    });
    await eventually(
      async () => (await graph.findNode({ label: 'Event', key: `${session.body.id}#2` })) !== null,
    );
    await forja.eventLog.append(session.body.id, [
      {
        type: 'agent.response',
        actor: 'criativo',
        payload: { v: 1, agent: 'criativo', text: 'Entrega antes das seis da manhã.' },
      },
    ]);
    await eventually(
      async () => (await graph.findNode({ label: 'Event', key: `${session.body.id}#3` })) !== null,
    );
    await eventually(
      async () =>
        (await forja.memory.ragSearch(project.body.id, { query: 'entrega seis da manhã', k: 3 }))
          .hits.length > 0,
    );
  });
});
