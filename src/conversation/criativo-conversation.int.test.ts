import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { eventTypes, newSessionThroughApi, startScriptedForja } from '../testing/scripted-forja.ts';

const BRIEF = {
  title: 'Padaria do amanhecer',
  summary: 'Pão fresco entregue de madrugada por assinatura.',
  problem: 'Quem acorda cedo não acha pão fresco.',
  audience: 'Moradores do bairro',
  goals: ['Entregar antes das 6h'],
};

describe.each(testDatabaseEngines())('Criativo conversation on $name', (engine) => {
  let forja: Forja;
  afterEach(() => forja?.close());

  it('streams a turn per message and stores the response, with business rules recorded only with an origin', async () => {
    const started = await startScriptedForja(engine, {
      turns: [
        { agent: 'criativo', text: 'Que ideia boa! Quem vai comprar o pão?' },
        {
          agent: 'criativo',
          text: 'Vou registrar essa regra.',
          tool_calls: [
            {
              name: 'emit_artifact',
              arguments: {
                type: 'business_rule',
                data: { title: 'Entrega cedo', statement: 'Toda entrega acontece antes das 6h.' },
                origin: [7],
              },
            },
          ],
        },
      ],
    });
    forja = started.forja;
    const { sessionId } = await newSessionThroughApi(forja);
    expect(
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`),
    ).toMatchObject({ status: 201, body: { type: 'agent.activated' } });

    const deltas: string[] = [];
    forja.liveTurns.subscribe(
      sessionId,
      (message) => message.type === 'agent.delta' && deltas.push(message.text),
    );
    const first = await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'Quero vender pão de madrugada',
    });
    expect(first.status).toBe(201);
    await forja.conversation.idle(sessionId);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Que ideia boa! Quem vai comprar o pão?');

    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'Os vizinhos. E tudo chega antes das 6h.',
    });
    await forja.conversation.idle(sessionId);
    expect(await eventTypes(forja, sessionId)).toEqual([
      [1, 'session.created'],
      [2, 'agent.activated'],
      [3, 'chat.message'],
      [4, 'turn.started'],
      [5, 'agent.response'],
      [6, 'turn.ended'],
      [7, 'chat.message'],
      [8, 'turn.started'],
      [9, 'agent.response'],
      [10, 'artifact.business_rule'],
      [11, 'tool.completed'],
      // It spoke and only recorded: the turn ends there, with no call for "Recorded business_rule." (ADR 0380).
      [12, 'turn.completed'],
      [13, 'turn.ended'],
    ]);
    const events = await forja.eventLog.read(sessionId);
    expect(events[9]!.payload).toMatchObject({ data: { title: 'Entrega cedo' }, origin: [7] });
    expect(events[10]!.payload).toMatchObject({ tool: 'emit_artifact', ok: true });
    started.provider.assertAllTurnsConsumed();
    const usage = await requestJson(forja, 'GET', `/api/sessions/${sessionId}/usage`);
    expect(usage.body.by_agent_and_model).toEqual([
      expect.objectContaining({ agent: 'criativo', calls: 2 }),
    ]);
  });

  it('answers, in its first turn, what the person wrote before starting it; started with nothing written, it waits', async () => {
    const started = await startScriptedForja(engine, {
      turns: [
        {
          agent: 'criativo',
          text: 'Pão de madrugada por assinatura: para quem?',
          // What the person wrote before Criativo joined reaches the model, both messages, in order.
          expect: { messages: ['Quero vender pão de madrugada', 'por assinatura'] },
        },
      ],
    });
    forja = started.forja;
    const { sessionId } = await newSessionThroughApi(forja);
    for (const text of ['Quero vender pão de madrugada', 'por assinatura, para os vizinhos'])
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text });
    await forja.conversation.idle(sessionId);
    expect(
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`),
    ).toMatchObject({ status: 201, body: { type: 'agent.activated' } });
    await forja.conversation.idle(sessionId);
    expect((await eventTypes(forja, sessionId)).map(([, type]) => type)).toEqual([
      'session.created',
      'chat.message',
      'chat.message',
      'agent.activated',
      'turn.started',
      'agent.response',
      'turn.ended',
    ]);
    expect((await forja.eventLog.read(sessionId)).at(-2)).toMatchObject({
      payload: { agent: 'criativo', text: 'Pão de madrugada por assinatura: para quem?' },
    });
    started.provider.assertAllTurnsConsumed();

    // A session where nothing was written before: starting Criativo calls no model (the greeting is the page's).
    const quiet = await newSessionThroughApi(forja);
    await requestJson(forja, 'POST', `/api/sessions/${quiet.sessionId}/agents/criativo/start`);
    await forja.conversation.idle(quiet.sessionId);
    expect((await eventTypes(forja, quiet.sessionId)).map(([, type]) => type)).toEqual([
      'session.created',
      'agent.activated',
    ]);
  });

  it('refuses, as a tool result the model reads, a product brief or a rule without a valid origin', async () => {
    const started = await startScriptedForja(engine, {
      turns: [
        {
          agent: 'criativo',
          text: 'Vou adiantar o brief.',
          tool_calls: [
            {
              name: 'emit_artifact',
              arguments: { type: 'product_brief', data: BRIEF, origin: [3] },
            },
            {
              name: 'emit_artifact',
              arguments: {
                type: 'business_rule',
                data: { title: 'x', statement: 'y' },
                origin: [1],
              },
            },
            { name: 'emit_artifact', arguments: { type: 'business_rule', data: { title: 'x' } } },
          ],
        },
        { agent: 'criativo', text: 'Entendi, preciso da sua confirmação.' },
      ],
    });
    forja = started.forja;
    const { sessionId } = await newSessionThroughApi(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'Faça o brief já',
    });
    await forja.conversation.idle(sessionId);
    const events = await forja.eventLog.read(sessionId);
    expect(events.some((event) => event.type.startsWith('artifact.'))).toBe(false);
    const results = events
      .filter((event) => event.type === 'tool.completed')
      .map((event) => event.payload as { ok: boolean; result: string });
    expect(results.map((result) => result.ok)).toEqual([false, false, false]);
    expect(results[0]!.result).toContain('product_brief');
    expect(results[0]!.result).toContain('Estou pronto para produzir');
    expect(results[1]!.result).toMatch(/origin/);
    expect(results[2]!.result).toMatch(/origin/);
  });

  it('consolidates the brief on readiness and offers a handoff to the PO, whose acceptance activates the PO', async () => {
    const started = await startScriptedForja(engine, {
      turns: [
        { agent: 'criativo', text: 'Ótimo.' },
        { agent: 'criativo', text: JSON.stringify(BRIEF) },
        { agent: 'po', text: 'Li o brief; vou escrever o backlog.' },
      ],
    });
    forja = started.forja;
    const { sessionId } = await newSessionThroughApi(forja);
    expect(
      (await requestJson(forja, 'POST', `/api/sessions/${sessionId}/readiness?wait=true`)).status,
    ).toBe(409);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'Pão de madrugada',
    });
    await forja.conversation.idle(sessionId);

    const ready = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionId}/readiness?wait=true`,
    );
    expect(ready).toMatchObject({
      status: 201,
      body: {
        brief: { type: 'artifact.product_brief', payload: { data: { title: BRIEF.title } } },
        handoff: { from_agent: 'criativo', to_agent: 'po', status: 'offered' },
      },
    });
    expect(ready.body.handoff.artifact_id).toBe(ready.body.brief.id);
    const types = (await eventTypes(forja, sessionId)).map(([, type]) => type);
    expect(types.slice(-6)).toEqual([
      'readiness.confirmed',
      'turn.started',
      'artifact.product_brief',
      'agent.response',
      'handoff.offered',
      'turn.ended',
    ]);
    expect(
      (await requestJson(forja, 'POST', `/api/sessions/${sessionId}/readiness?wait=true`)).status,
    ).toBe(409);

    const handoffs = await requestJson(forja, 'GET', `/api/sessions/${sessionId}/handoffs`);
    expect(handoffs.body.handoffs).toEqual([{ ...ready.body.handoff, decisions: [] }]);
    const handoffId = ready.body.handoff.id;
    expect(
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/po/start`),
    ).toMatchObject({ status: 409, body: { error: { message: expect.stringContaining('po') } } });
    expect(await requestJson(forja, 'POST', `/api/handoffs/${handoffId}/complete`)).toMatchObject({
      status: 409,
      body: { error: { message: expect.stringContaining('offered') } },
    });
    expect(await requestJson(forja, 'POST', `/api/handoffs/${handoffId}/accept`)).toMatchObject({
      status: 200,
      body: { status: 'accepted' },
    });
    expect(await requestJson(forja, 'POST', `/api/handoffs/${handoffId}/accept`)).toMatchObject({
      status: 409,
    });
    expect(
      await requestJson(forja, 'POST', `/api/handoffs/${handoffId}/reject`, { reason: 'late' }),
    ).toMatchObject({ status: 409 });
    // The activation starts the PO's kickoff turn in the PO's lane (src/conversation/start-pending-kickoffs.ts).
    await forja.conversation.idle(sessionId);
    const tail = (await forja.eventLog.read(sessionId)).slice(-5);
    expect(
      tail.map((event) => [event.type, (event.payload as { agent?: string }).agent ?? null]),
    ).toEqual([
      ['handoff.accepted', null],
      ['agent.activated', 'po'],
      ['turn.started', 'po'],
      ['agent.response', 'po'],
      ['turn.ended', 'po'],
    ]);
    expect(await requestJson(forja, 'POST', `/api/handoffs/${handoffId}/complete`)).toMatchObject({
      status: 200,
      body: { status: 'completed' },
    });
    const rows = await forja.database.query('select status from handoffs where id = $1', [
      handoffId,
    ]);
    expect(rows.rows).toEqual([{ status: 'completed' }]);
  });

  it('answers readiness with 202 when the turn starts, before the brief: a slow consolidation holds no request', async () => {
    const started = await startScriptedForja(engine, {
      turns: [
        { agent: 'criativo', text: 'Ótimo.' },
        { agent: 'criativo', text: JSON.stringify(BRIEF), delay_ms: 5000 },
      ],
    });
    forja = started.forja;
    const { sessionId } = await newSessionThroughApi(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'Pão de madrugada',
    });
    await forja.conversation.idle(sessionId);

    const ready = await requestJson(forja, 'POST', `/api/sessions/${sessionId}/readiness`);
    expect(ready).toMatchObject({ status: 202, body: { turn_id: expect.any(String) } });
    // Measured by the log, not a clock: when the 202 came, the turn had started and no brief existed yet.
    const atAnswer = (await eventTypes(forja, sessionId)).map(([, type]) => type);
    expect(atAnswer.slice(-2)).toEqual(['readiness.confirmed', 'turn.started']);
    await forja.conversation.idle(sessionId);
    const events = await forja.eventLog.read(sessionId);
    const turnIds = events
      .filter((event) => event.type === 'turn.started')
      .map((event) => (event.payload as { turn_id: string }).turn_id);
    expect(turnIds.at(-1)).toBe(ready.body.turn_id);
    expect(events.map((event) => event.type).slice(-4)).toEqual([
      'artifact.product_brief',
      'agent.response',
      'handoff.offered',
      'turn.ended',
    ]);
  });

  it('rejects an offered handoff with a reason, and nothing activates the PO', async () => {
    const started = await startScriptedForja(engine, {
      turns: [
        { agent: 'criativo', text: JSON.stringify(BRIEF) },
        // The rejection goes back to Criativo (ADR 0160): a turn in its lane, told the reason.
        { agent: 'criativo', expect: { system: ['Motivo: Ainda não'] }, text: 'O que falta?' },
      ],
    });
    forja = started.forja;
    const { sessionId } = await newSessionThroughApi(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    const ready = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionId}/readiness?wait=true`,
    );
    const rejected = await requestJson(
      forja,
      'POST',
      `/api/handoffs/${ready.body.handoff.id}/reject`,
      { reason: 'Ainda não' },
    );
    expect(rejected).toMatchObject({ status: 200, body: { status: 'rejected' } });
    await forja.conversation.idle(sessionId);
    expect((await forja.eventLog.read(sessionId)).slice(-4)).toMatchObject([
      { type: 'handoff.rejected', payload: { reason: 'Ainda não' } },
      { type: 'turn.started', payload: { agent: 'criativo' } },
      { type: 'agent.response', payload: { agent: 'criativo', text: 'O que falta?' } },
      { type: 'turn.ended', payload: { agent: 'criativo', outcome: 'answered' } },
    ]);
    expect(
      (await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/po/start`)).status,
    ).toBe(409);
    expect(
      (
        await requestJson(
          forja,
          'POST',
          '/api/handoffs/00000000-0000-4000-8000-000000000000/accept',
        )
      ).status,
    ).toBe(404);
  });

  it('keeps no brief when the consolidation is not a valid brief, and lets the person retry', async () => {
    const started = await startScriptedForja(engine, {
      turns: [
        { agent: 'criativo', text: 'Aqui está o brief: nada de JSON.' },
        { agent: 'criativo', text: JSON.stringify(BRIEF) },
      ],
    });
    forja = started.forja;
    const { sessionId } = await newSessionThroughApi(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    expect(
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/readiness?wait=true`),
    ).toMatchObject({
      status: 502,
      body: { error: { code: 'invalid_brief' } },
    });
    expect(
      (await forja.eventLog.read(sessionId)).some(
        (event) => event.type === 'artifact.product_brief',
      ),
    ).toBe(false);
    expect(
      (await requestJson(forja, 'POST', `/api/sessions/${sessionId}/readiness?wait=true`)).status,
    ).toBe(201);
  });

  it('refuses readiness the budget does not cover (409) and stores nothing; with budget, the same press consolidates', async () => {
    const started = await startScriptedForja(engine, {
      turns: [{ agent: 'criativo', text: JSON.stringify(BRIEF) }],
    });
    forja = started.forja;
    const { projectId, sessionId } = await newSessionThroughApi(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    await requestJson(forja, 'PUT', `/api/projects/${projectId}/budget`, { max_tokens: 10 });
    const count = async () =>
      (
        await forja.database.query<{ events: number; usage: number }>(
          'select (select count(*) from session_events)::int as events, (select count(*) from token_usage)::int as usage',
        )
      ).rows[0]!;
    const before = await count();
    expect(
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/readiness?wait=true`),
    ).toMatchObject({
      status: 409,
      body: { error: { code: 'budget_exceeded', message: expect.stringContaining('budget (10)') } },
    });
    expect(await count()).toEqual(before);
    await requestJson(forja, 'PUT', `/api/projects/${projectId}/budget`, { max_tokens: null });
    expect(
      (await requestJson(forja, 'POST', `/api/sessions/${sessionId}/readiness?wait=true`)).status,
    ).toBe(201);
  });

  it('refuses readiness while a turn is in progress (409) and stores nothing', async () => {
    forja = (await startScriptedForja(engine, { turns: [] })).forja;
    const { sessionId } = await newSessionThroughApi(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    // What a process killed mid-turn leaves, before the restart resumes it.
    await forja.eventLog.append(sessionId, [
      {
        type: 'turn.started',
        actor: 'criativo',
        payload: { v: 1, agent: 'criativo', turn_id: 'turn-lost', kind: 'message' },
      },
    ]);
    const before = await eventTypes(forja, sessionId);
    expect(
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/readiness?wait=true`),
    ).toMatchObject({
      status: 409,
      body: { error: { code: 'turn_refused', message: expect.stringContaining('turn-lost') } },
    });
    expect(await eventTypes(forja, sessionId)).toEqual(before);
  });

  it('after a process died in the middle of a turn, answers that turn once on restart and the conversation goes on', async () => {
    const { createForja } = await import('../composition.ts');
    const { loadConfig } = await import('../config/config.ts');
    const { createScriptedProvider } = await import('../gateway/providers/index.ts');
    const pino = (await import('pino')).default;
    const database = await engine.open();
    try {
      const loaded = loadConfig({});
      if (!loaded.ok) throw new Error(loaded.error.message);
      const script = {
        turns: [
          { agent: 'criativo', text: 'Resposta depois da volta.' },
          { agent: 'criativo', text: 'E a conversa segue.' },
        ],
      };
      const before = await createForja(loaded.config, pino({ level: 'silent' }), {
        database,
        env: {},
        provider: createScriptedProvider({ script }),
      });
      const { sessionId } = await newSessionThroughApi(before);
      await requestJson(before, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
      // What a process killed mid-stream leaves: the message and the turn's start, no response.
      await before.eventLog.append(sessionId, [
        { type: 'chat.message', actor: 'user', payload: { v: 1, text: 'Antes da queda' } },
        {
          type: 'turn.started',
          actor: 'criativo',
          payload: { v: 1, agent: 'criativo', turn_id: 'turn-lost', kind: 'message' },
        },
      ]);
      await before.close();

      forja = await createForja(loaded.config, pino({ level: 'silent' }), {
        database,
        env: {},
        provider: createScriptedProvider({ script }),
      });
      const resumed = await forja.conversation.resumeInterruptedTurns();
      await Promise.all(resumed.map((turn) => turn.result));
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
        text: 'Depois da volta',
      });
      await forja.conversation.idle(sessionId);
      const events = await forja.eventLog.read(sessionId);
      const responses = events
        .filter((event) => event.type === 'agent.response')
        .map((event) => event.payload as { text: string; turn_id: string });
      expect(responses).toEqual([
        expect.objectContaining({ text: 'Resposta depois da volta.', turn_id: 'turn-lost' }),
        expect.objectContaining({ text: 'E a conversa segue.' }),
      ]);
      expect(events.filter((event) => event.type === 'chat.message')).toHaveLength(2);
    } finally {
      await forja?.close();
      await database.close();
    }
  });

  it('answers with a clear error when no model is configured, and the message is still stored', async () => {
    const { startTestForja } = await import('../testing/forja-harness.ts');
    forja = await startTestForja(engine);
    const { sessionId } = await newSessionThroughApi(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text: 'Olá?' });
    await forja.conversation.idle(sessionId);
    const [last, ended] = (await forja.eventLog.read(sessionId)).slice(-2);
    expect(ended).toMatchObject({ type: 'turn.ended', payload: { outcome: 'failed' } });
    expect(last).toMatchObject({ type: 'turn.failed', payload: { reason: 'not_configured' } });
    expect((last!.payload as { message: string }).message).toContain('FORJA_MODEL');
    expect(
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/readiness?wait=true`),
    ).toMatchObject({
      status: 503,
      body: { error: { message: expect.stringContaining('FORJA_MODEL') } },
    });
  });
});
