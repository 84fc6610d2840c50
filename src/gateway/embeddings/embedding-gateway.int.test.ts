import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, type Database } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { setProjectBudget, setProjectMoneyBudget } from '../metering/project-budget.ts';
import { createEmbeddingGateway } from './embedding-gateway.ts';
import type { EmbeddingProvider } from './embedding-provider.ts';

const provider = (behaviour: 'ok' | 'fail'): EmbeddingProvider => ({
  name: 'openai',
  model: 'text-embedding-3-small',
  embed: async (texts) => {
    if (behaviour === 'fail') throw new Error('503 from the provider');
    return { vectors: texts.map((text) => [text.length, 1]), inputTokens: 7 };
  },
});

describe.each(testDatabaseEngines())('embedding gateway on $name', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(() => database.close());

  const usage = async (projectId: string) =>
    (
      await database.query(
        'select agent, provider, model, outcome, input_tokens, output_tokens, estimated, error from token_usage where project_id = $1 order by created_at',
        [projectId],
      )
    ).rows;

  it('meters every embedding call like a turn: completed, failed, or refused by the budget before the provider is called', async () => {
    const project = await createProject(database, { name: 'p' });
    const request = {
      projectId: project.id,
      sessionId: null,
      agent: 'rag',
      texts: ['pão', 'entrega'],
    };
    expect(
      await createEmbeddingGateway({ database, provider: provider('ok') }).embed(request),
    ).toEqual({
      status: 'completed',
      usageId: expect.any(String),
      vectors: [
        [3, 1],
        [7, 1],
      ],
    });
    expect(
      await createEmbeddingGateway({ database, provider: provider('fail') }).embed(request),
    ).toMatchObject({ status: 'failed', message: '503 from the provider' });
    await setProjectBudget(database, project.id, 5);
    let called = false;
    const watched: EmbeddingProvider = {
      ...provider('ok'),
      embed: async (texts, options) => ((called = true), provider('ok').embed(texts, options)),
    };
    expect(
      await createEmbeddingGateway({ database, provider: watched }).embed(request),
    ).toMatchObject({ status: 'budget_exceeded' });
    expect(called).toBe(false);
    expect(await usage(project.id)).toEqual([
      {
        agent: 'rag',
        provider: 'openai',
        model: 'text-embedding-3-small',
        outcome: 'completed',
        input_tokens: 7,
        output_tokens: 0,
        estimated: false,
        error: null,
      },
      {
        agent: 'rag',
        provider: 'openai',
        model: 'text-embedding-3-small',
        outcome: 'error',
        input_tokens: expect.any(Number),
        output_tokens: 0,
        estimated: true,
        error: '503 from the provider',
      },
      {
        agent: 'rag',
        provider: 'openai',
        model: 'text-embedding-3-small',
        outcome: 'refused',
        input_tokens: 0,
        output_tokens: 0,
        estimated: true,
        error: null,
      },
    ]);
  });

  it('says so when no embedding provider is configured', async () => {
    const gateway = createEmbeddingGateway({ database, provider: null });
    expect(gateway.model).toBeNull();
    expect(
      await gateway.embed({ projectId: 'x', sessionId: null, agent: 'rag', texts: ['a'] }),
    ).toMatchObject({
      status: 'not_configured',
      message: expect.stringContaining('FORJA_EMBEDDING_MODEL'),
    });
  });

  it('prices embeddings and holds them to a money budget, refusing a model with no known price under it', async () => {
    const project = await createProject(database, { name: 'p' });
    const request = { projectId: project.id, sessionId: null, agent: 'rag', texts: ['pão'] };
    await setProjectMoneyBudget(database, project.id, 1);
    const priced = await createEmbeddingGateway({ database, provider: provider('ok') }).embed(
      request,
    );
    expect(priced.status).toBe('completed');
    const cost = await database.query<{ cost: number }>(
      'select cost_usd::float8 as cost from token_usage where project_id = $1',
      [project.id],
    );
    // text-embedding-3-small at US$0.02 per million tokens, 7 tokens.
    expect(cost.rows).toEqual([{ cost: (7 * 0.02) / 1e6 }]);
    const unknown: EmbeddingProvider = { ...provider('ok'), model: 'nomic-embed-text' };
    expect(
      await createEmbeddingGateway({ database, provider: unknown }).embed(request),
    ).toMatchObject({
      status: 'budget_exceeded',
      message: expect.stringContaining('no price is known for openai:nomic-embed-text'),
    });
  });
});
