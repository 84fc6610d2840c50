import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../../composition.ts';
import { ARTIFACT_PAYLOAD_VERSION } from '../../domain/artifacts/index.ts';
import { startMemoryForja } from '../../memory/testing/start-memory-forja.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson } from '../../testing/forja-harness.ts';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const ON = { PSYCHOLOGIST_ENABLED: 'true', ANAMNESE_ENABLED: 'true' };

describe.each(testDatabaseEngines())('memory routes on $name', (engine) => {
  let forja: Forja;
  afterEach(() => forja?.close());

  const call = (method: string, path: string, body?: unknown) =>
    requestJson(forja, method, path, body);
  async function sessionWithMessages(...texts: string[]) {
    const project = await call('POST', '/api/projects', { name: 'Padaria' });
    const session = await call('POST', `/api/projects/${project.body.id}/sessions`, {
      title: 'Ideia',
    });
    for (const text of texts)
      await call('POST', `/api/sessions/${session.body.id}/messages`, { text });
    return { projectId: project.body.id as string, sessionId: session.body.id as string };
  }
  const eventsOf = async (sessionId: string) =>
    (await forja.eventLog.read(sessionId)).map((event) => ({
      seq: event.seq,
      type: event.type,
      actor: event.actor,
      payload: event.payload,
    }));

  it('ends a session with the classified reason; with the flags off no companion runs; twice is a 409', async () => {
    ({ forja } = await startMemoryForja(engine));
    const { sessionId } = await sessionWithMessages('Quero vender pão');
    const ended = await call('POST', `/api/sessions/${sessionId}/end`);
    expect(ended).toMatchObject({
      status: 201,
      body: {
        reason: 'abandoned',
        companions: [],
        event: { seq: 3, type: 'session.ended', payload: { v: 1, reason: 'abandoned' } },
      },
    });
    await forja.conversation.idle(sessionId);
    expect((await eventsOf(sessionId)).map((event) => event.type)).toEqual([
      'session.created',
      'chat.message',
      'session.ended',
    ]);
    expect(await call('POST', `/api/sessions/${sessionId}/end`)).toMatchObject({
      status: 409,
      body: { error: { code: 'already_ended', message: expect.stringContaining('#3') } },
    });
    // An ended session takes no more messages, and the refused one is not stored.
    expect(
      await call('POST', `/api/sessions/${sessionId}/messages`, { text: 'Mais uma coisa' }),
    ).toMatchObject({ status: 409, body: { error: { code: 'session_ended' } } });
    expect((await eventsOf(sessionId)).at(-1)!.type).toBe('session.ended');
    expect((await call('POST', `/api/sessions/${UNKNOWN_ID}/end`)).status).toBe(404);
    expect((await call('POST', '/api/sessions/not-a-uuid/end')).status).toBe(400);
  });

  it('with psychologist_enabled, the Psicólogo proposes hypotheses backed by the session; the person accepts or dismisses each once', async () => {
    const answer = {
      hypotheses: [
        {
          aspect: 'decisoes',
          statement: 'Decide melhor com exemplos concretos',
          evidence: [2, 3, 40],
        },
        { aspect: 'ritmo', statement: 'Sem evidência', evidence: [99] },
        { aspect: 'ritmo', statement: 'Prefere entregas pequenas', evidence: [3] },
      ],
    };
    ({ forja } = await startMemoryForja(engine, {
      env: { PSYCHOLOGIST_ENABLED: 'true' },
      script: { turns: [{ agent: 'psicologo', text: JSON.stringify(answer) }] },
    }));
    const { projectId, sessionId } = await sessionWithMessages(
      'Quero vender pão',
      'Por exemplo: entrega às 6h',
    );
    expect(await call('POST', `/api/sessions/${sessionId}/end`)).toMatchObject({
      status: 201,
      body: { companions: ['psicologo'] },
    });
    await forja.conversation.idle(sessionId);
    const proposed = (await eventsOf(sessionId)).filter(
      (event) => event.type === 'hypothesis.proposed',
    );
    expect(proposed).toEqual([
      {
        seq: 5,
        type: 'hypothesis.proposed',
        actor: 'psicologo',
        payload: {
          v: 1,
          hypothesis_id: expect.any(String),
          aspect: 'decisoes',
          statement: 'Decide melhor com exemplos concretos',
          evidence: [2, 3],
          trigger: { kind: 'session.ended', reason: 'abandoned' },
          rag: { degraded: false },
        },
      },
      {
        seq: 6,
        type: 'hypothesis.proposed',
        actor: 'psicologo',
        payload: expect.objectContaining({ statement: 'Prefere entregas pequenas', evidence: [3] }),
      },
    ]);
    const [first, second] = proposed.map(
      (event) => (event.payload as { hypothesis_id: string }).hypothesis_id,
    );
    expect(await call('POST', `/api/hypotheses/${first}/accept`)).toMatchObject({
      status: 200,
      body: {
        event: {
          type: 'hypothesis.accepted',
          actor: 'user',
          payload: { v: 1, hypothesis_id: first },
        },
      },
    });
    expect(await call('POST', `/api/hypotheses/${second}/dismiss`)).toMatchObject({
      status: 200,
      body: { event: { type: 'hypothesis.dismissed' } },
    });
    expect(await call('POST', `/api/hypotheses/${first}/dismiss`)).toMatchObject({
      status: 409,
      body: { error: { code: 'already_answered' } },
    });
    expect((await call('POST', `/api/hypotheses/${UNKNOWN_ID}/accept`)).status).toBe(404);

    await forja.memory.projector.catchUp();
    const context = await call('GET', `/api/projects/${projectId}/user-context`);
    expect(context.status).toBe(200);
    // Both were proposed in one append (same time), so their order is by id.
    const byId = Object.fromEntries(
      context.body.hypotheses.map((hypothesis: { id: string }) => [hypothesis.id, hypothesis]),
    );
    expect(context.body.hypotheses).toHaveLength(2);
    expect(byId[first!]).toEqual({
      id: first,
      session_id: sessionId,
      statement: 'Decide melhor com exemplos concretos',
      status: 'accepted',
      trigger_reason: 'abandoned',
      proposed_at: expect.any(String),
      answered_at: expect.any(String),
      evidence: [
        { session_id: sessionId, seq: 2, type: 'chat.message', excerpt: 'Quero vender pão' },
        {
          session_id: sessionId,
          seq: 3,
          type: 'chat.message',
          excerpt: 'Por exemplo: entrega às 6h',
        },
      ],
    });
    expect(byId[second!]).toMatchObject({ status: 'dismissed', evidence: [{ seq: 3 }] });
    const usage = await call('GET', `/api/sessions/${sessionId}/usage`);
    expect(usage.body.by_agent_and_model).toEqual([
      expect.objectContaining({ agent: 'psicologo', calls: 1 }),
    ]);
  });

  it('with anamnese_enabled, records closed competence profiles and refuses one that infers health, keeping no refused text', async () => {
    const answer = {
      profiles: [
        { competency: 'produto', level: 'avancado', evidence: [2] },
        {
          competency: 'Comunicação',
          level: 'intermediario',
          summary: 'Comunica bem, mas parece ter ansiedade com prazos',
          evidence: [2],
        },
        {
          competency: 'SQL',
          level: 'iniciante',
          summary: 'Escreve consultas simples',
          evidence: [2],
        },
        { competency: 'Tem 45 anos', level: 'iniciante', evidence: [2] },
      ],
    };
    ({ forja } = await startMemoryForja(engine, {
      env: { ANAMNESE_ENABLED: 'true' },
      script: { turns: [{ agent: 'anamnese', text: JSON.stringify(answer) }] },
    }));
    const { projectId, sessionId } = await sessionWithMessages('Vendo pão para quem acorda cedo');
    expect((await call('POST', `/api/sessions/${sessionId}/end`)).body.companions).toEqual([
      'anamnese',
    ]);
    await forja.conversation.idle(sessionId);
    const events = await eventsOf(sessionId);
    expect(events.slice(3)).toEqual([
      {
        seq: 4,
        type: 'anamnese.profile_recorded',
        actor: 'anamnese',
        payload: {
          v: 2,
          profile_id: expect.any(String),
          competency: 'Produto',
          level: 'avancado',
          evidence: [2],
        },
      },
      {
        seq: 5,
        type: 'anamnese.profile_refused',
        actor: 'system',
        payload: { v: 1, competency: 'Comunicação', categories: ['health'], paths: ['summary'] },
      },
      {
        seq: 6,
        type: 'anamnese.profile_refused',
        actor: 'system',
        payload: {
          v: 1,
          competency: '(not in the vocabulary)',
          categories: ['age'],
          paths: ['competency'],
        },
      },
    ]);
    expect(JSON.stringify(events)).not.toContain('ansiedade');
    expect(JSON.stringify(events)).not.toContain('45 anos');
    await forja.memory.projector.catchUp();
    const context = await call('GET', `/api/projects/${projectId}/user-context`);
    expect(context.body).toEqual({
      project_id: projectId,
      hypotheses: [],
      profiles: [
        expect.objectContaining({
          competency: 'Produto',
          level: 'avancado',
          evidence: [expect.objectContaining({ seq: 2, type: 'chat.message' })],
        }),
      ],
    });
  });

  it("with anamnese_enabled, a module map's stack adds technologies, never a word about the person", async () => {
    const answer = {
      profiles: [
        { competency: 'Node', level: 'avancado', evidence: [2] },
        { competency: 'Diabético', level: 'avancado', evidence: [2] },
        { competency: 'Sexagenário', level: 'iniciante', evidence: [2] },
        { competency: 'Sofre de insônia', level: 'iniciante', evidence: [2] },
      ],
    };
    ({ forja } = await startMemoryForja(engine, {
      env: { ANAMNESE_ENABLED: 'true' },
      script: {
        turns: [
          {
            agent: 'anamnese',
            expect: { system: ['use exatamente estes nomes', 'Node'] },
            text: JSON.stringify(answer),
          },
        ],
      },
    }));
    const { projectId, sessionId } = await sessionWithMessages('Vendo pão para quem acorda cedo');
    const other = await call('POST', `/api/projects/${projectId}/sessions`, {});
    const modules = [
      { name: 'pedidos', stack: 'Node, Diabético', responsibility: 'Pedidos.' },
      { name: 'caixa', stack: 'Sofre de insônia + Sexagenário', responsibility: 'Caixa.' },
    ];
    const mapped = await forja.eventLog.append(other.body.id, [
      {
        type: 'artifact.module_map',
        actor: 'arquiteto',
        payload: { v: ARTIFACT_PAYLOAD_VERSION, data: { version: 1, modules } },
      },
    ]);
    expect(mapped.success).toBe(true);
    await call('POST', `/api/sessions/${sessionId}/end`);
    await forja.conversation.idle(sessionId);
    const events = (await eventsOf(sessionId))
      .slice(3)
      .map((event) => ({ type: event.type, payload: event.payload as Record<string, unknown> }));
    expect(events.map((event) => [event.type, event.payload.competency])).toEqual([
      ['anamnese.profile_recorded', 'Node'],
      ['anamnese.profile_refused', '(not in the vocabulary)'],
      ['anamnese.profile_refused', '(not in the vocabulary)'],
      ['anamnese.profile_refused', '(not in the vocabulary)'],
    ]);
    expect(events.slice(1).map((event) => event.payload.categories)).toEqual([
      ['health'],
      ['age'],
      ['health'],
    ]);
    expect(JSON.stringify(events)).not.toMatch(/Diab|Sexagen|ins[oô]nia/);
  });

  it('searches the indexed fragments of a project, reports the method and records feedback', async () => {
    ({ forja } = await startMemoryForja(engine, { env: ON }));
    const { projectId, sessionId } = await sessionWithMessages('oi');
    await forja.eventLog.append(sessionId, [
      {
        type: 'artifact.business_rule',
        actor: 'criativo',
        payload: {
          v: 1,
          data: { title: 'Entrega cedo', statement: 'Toda entrega acontece antes das 6h da manhã' },
          origin: [2],
        },
      },
      {
        type: 'agent.response',
        actor: 'criativo',
        payload: { v: 1, agent: 'criativo', text: 'O pagamento será por assinatura mensal.' },
      },
    ]);
    expect(
      await call('POST', `/api/projects/${projectId}/rag/search`, {
        query: 'entrega antes das 6h',
      }),
    ).toMatchObject({ status: 200, body: { hits: [], degraded: false } });
    await forja.memory.indexer.catchUp();
    const found = await call('POST', `/api/projects/${projectId}/rag/search`, {
      query: 'entrega antes das 6h',
      k: 1,
    });
    expect(found).toMatchObject({
      status: 200,
      body: {
        degraded: false,
        method: forja.memory.vectorIndex.method,
        hits: [
          {
            source_kind: 'artifact',
            source: 'artifact.business_rule #3',
            text: 'title: Entrega cedo statement: Toda entrega acontece antes das 6h da manhã',
          },
        ],
      },
    });
    expect(found.body.parts).toEqual(['fts', forja.memory.vectorIndex.method]);
    // The default configuration (local embedder): full-text search carries the inflection and the paraphrase.
    const paraphrase = await call('POST', `/api/projects/${projectId}/rag/search`, {
      query: 'entregas antes do amanhecer',
      k: 1,
    });
    expect(paraphrase).toMatchObject({
      status: 200,
      body: { degraded: false, hits: [{ source: 'artifact.business_rule #3' }] },
    });
    // Ranked first by both parts: the full-text search found it too, not only the vectors.
    expect(paraphrase.body.hits[0].score).toBeCloseTo(2 / 61, 6);
    const feedback = await call('POST', `/api/sessions/${sessionId}/rag-feedback`, {
      query: 'entrega antes das 6h',
      helpful: [found.body.hits[0].chunk_id],
    });
    expect(feedback).toMatchObject({
      status: 201,
      body: {
        type: 'rag.feedback',
        payload: {
          v: 1,
          query: 'entrega antes das 6h',
          helpful: [found.body.hits[0].chunk_id],
          not_helpful: [],
        },
      },
    });
    expect(
      await call('POST', `/api/projects/${projectId}/rag/search`, { query: ' ', k: 0 }),
    ).toMatchObject({ status: 400 });
    expect(
      (await call('POST', `/api/projects/${UNKNOWN_ID}/rag/search`, { query: 'x' })).status,
    ).toBe(404);
    expect(
      (
        await call('POST', `/api/sessions/${sessionId}/rag-feedback`, {
          query: 'x',
          helpful: 'all',
        })
      ).status,
    ).toBe(400);
  });

  it('answers 404 for the user context of an unknown project, and 503 naming the cause when the graph is unavailable', async () => {
    ({ forja } = await startMemoryForja(engine));
    const { projectId } = await sessionWithMessages();
    expect((await call('GET', `/api/projects/${UNKNOWN_ID}/user-context`)).status).toBe(404);
    await forja.database.query('alter schema graph rename to graph_away');
    try {
      expect(await call('GET', `/api/projects/${projectId}/user-context`)).toMatchObject({
        status: 503,
        body: {
          error: {
            code: 'graph_unavailable',
            message: expect.stringContaining('graph is unavailable'),
          },
        },
      });
    } finally {
      await forja.database.query('alter schema graph_away rename to graph');
    }
  });
});
