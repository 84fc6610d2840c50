import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEventLog,
  createProject,
  createSession,
  type Database,
  type EventLog,
} from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import type { Embedder } from './embedder.ts';
import { createLocalEmbedder } from './hashed-ngram-embedder.ts';
import { createPostgresVectorIndex } from './postgres-vector-index.ts';
import { RAG_INDEX_AGGREGATE, ragIndexRule } from './rag-index-rule.ts';
import { createRagIndexer } from './rag-indexer.ts';
import { rebuildRagIndex } from './rebuild-rag-index.ts';
import { ragSearch } from './rag-search.ts';

const silent = pino({ level: 'silent' });

describe.each(testDatabaseEngines())('RAG indexing on $name', (engine) => {
  let database: Database;
  let eventLog: EventLog;
  beforeAll(async () => {
    database = await engine.open();
    eventLog = createEventLog(database, [ragIndexRule]);
  });
  afterAll(() => database.close());

  const chunksOf = async (projectId: string) =>
    (
      await database.query<{ id: string; source_label: string }>(
        'select id, source_label from rag.chunks where project_id = $1 order by source_label',
        [projectId],
      )
    ).rows;
  async function projectWithEvents() {
    const project = await createProject(database, { name: 'p' });
    const session = await createSession(database, { projectId: project.id });
    await eventLog.append(session.id, [
      { type: 'chat.message', actor: 'user', payload: { v: 1, text: 'not indexed' } },
      {
        type: 'artifact.business_rule',
        actor: 'criativo',
        payload: { v: 1, data: { title: 'Entrega cedo', statement: 'Antes das 6h' }, origin: [2] },
      },
      {
        type: 'agent.response',
        actor: 'criativo',
        payload: { v: 1, agent: 'criativo', text: 'Assinatura mensal.' },
      },
      {
        type: 'agent.response',
        actor: 'criativo',
        payload: { v: 1, agent: 'criativo', text: '   ' },
      },
    ]);
    return project.id;
  }

  it('indexes artifacts and agent responses from the outbox, idempotently', async () => {
    const projectId = await projectWithEvents();
    const index = await createPostgresVectorIndex(database);
    const indexer = createRagIndexer({
      database,
      embedder: createLocalEmbedder(),
      index,
      logger: silent,
    });
    expect(await indexer.runCycle()).toMatchObject({ processed: 3, failed: 0, stopped: null });
    expect((await chunksOf(projectId)).map((chunk) => chunk.source_label)).toEqual([
      'agent.response (criativo) #4',
      'artifact.business_rule #3',
    ]);
    await database.query('update outbox set processed_at = null where aggregate_type = $1', [
      RAG_INDEX_AGGREGATE,
    ]);
    await indexer.runCycle();
    expect(await chunksOf(projectId)).toHaveLength(2);
    const found = await ragSearch({ embedder: createLocalEmbedder(), index }, projectId, {
      query: 'assinatura mensal',
      k: 1,
    });
    expect(found).toMatchObject({
      degraded: false,
      hits: [{ source: 'agent.response (criativo) #4' }],
    });
  });

  it('fails only the rows whose embedding failed, and indexes them on a later cycle', async () => {
    await database.query(
      'update outbox set processed_at = now() where aggregate_type = $1 and processed_at is null',
      [RAG_INDEX_AGGREGATE],
    );
    const projectId = await projectWithEvents();
    let down = true;
    const flaky: Embedder = {
      name: 'hashed-ngram-256',
      embed: async (texts, context) =>
        down ? { ok: false, reason: 'provider down' } : createLocalEmbedder().embed(texts, context),
    };
    const index = await createPostgresVectorIndex(database);
    const indexer = createRagIndexer({ database, embedder: flaky, index, logger: silent });
    expect(await indexer.runCycle()).toMatchObject({ processed: 1, failed: 2 });
    const failed = await database.query<{ last_error: string }>(
      'select last_error from outbox where aggregate_type = $1 and processed_at is null',
      [RAG_INDEX_AGGREGATE],
    );
    expect(failed.rows.map((row) => row.last_error)).toEqual([
      'Error: embedding failed: provider down',
      'Error: embedding failed: provider down',
    ]);
    down = false;
    await database.query(
      'update outbox set available_at = now() where aggregate_type = $1 and processed_at is null',
      [RAG_INDEX_AGGREGATE],
    );
    expect(await indexer.runCycle()).toMatchObject({ processed: 2, failed: 0 });
    expect(await chunksOf(projectId)).toHaveLength(2);
  });

  it('rebuilds the whole index from the log and the workspace documents', async () => {
    const projectId = await projectWithEvents();
    const index = await createPostgresVectorIndex(database, { method: 'exact' });
    const outcome = await rebuildRagIndex(database, {
      embedder: createLocalEmbedder(),
      index,
      readDocuments: async (id) =>
        id === projectId
          ? [
              {
                path: 'docs/architecture.md',
                content: '# Módulos\n\nO módulo de entregas publica eventos.',
              },
            ]
          : [],
    });
    expect(outcome).toMatchObject({ ok: true });
    expect((await chunksOf(projectId)).map((chunk) => chunk.source_label)).toEqual([
      'agent.response (criativo) #4',
      'artifact.business_rule #3',
      'docs/architecture.md',
    ]);
    const failing: Embedder = { name: 'x', embed: async () => ({ ok: false, reason: 'no' }) };
    expect(await rebuildRagIndex(database, { embedder: failing, index })).toEqual({
      ok: false,
      reason: expect.stringContaining('failed: no'),
    });
    expect(await chunksOf(projectId)).toHaveLength(3);
  });
  it('drains in short transactions under a time budget, embedding each text once across them', async () => {
    const index = await createPostgresVectorIndex(database, { method: 'exact' });
    const local = createLocalEmbedder();
    // Rows other tests left pending are drained first: this test counts only its own.
    await createRagIndexer({ database, embedder: local, index, logger: silent }).runCycle();
    const embedded: string[] = [];
    const counting: Embedder = {
      name: local.name,
      embed: (texts, context) => (embedded.push(...texts), local.embed(texts, context)),
    };
    const projectId = await projectWithEvents();
    // A budget of 0 ms: every transaction takes one row and leaves the rest to the next cycle.
    const indexer = createRagIndexer({
      database,
      embedder: counting,
      index,
      logger: silent,
      timeBudgetMs: 0,
    });
    const reports = [];
    for (
      let report = await indexer.runCycle();
      report.processed > 0;
      report = await indexer.runCycle()
    )
      reports.push(report);
    expect(reports.map((report) => [report.processed, report.outOfTime])).toEqual([
      [1, true],
      [1, true],
      [1, undefined],
    ]);
    expect((await chunksOf(projectId)).map((chunk) => chunk.source_label)).toEqual([
      'agent.response (criativo) #4',
      'artifact.business_rule #3',
    ]);
    expect(embedded).toHaveLength(2);
  });
});
