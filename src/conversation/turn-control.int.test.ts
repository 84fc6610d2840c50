import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createForja, type Forja } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import { rehydrate, type SessionEvent } from '../domain/conversation/index.ts';
import {
  createScriptedProvider,
  type ModelRequest,
  type ScriptInput,
} from '../gateway/providers/index.ts';
import { testDatabaseEngines, type TestDatabaseEngine } from '../store/testing/test-databases.ts';
import { requestJson, startTestForja } from '../testing/forja-harness.ts';
import { newSessionThroughApi } from '../testing/scripted-forja.ts';
import { LINE_MESSAGES } from './testing/play-up-to-the-devs.ts';
import { UP_TO_ARQUITETO } from './testing/production-line-script.ts';
import { startLine } from './testing/start-line.ts';

const LONG = Array.from({ length: 60 }, (_, index) => `palavra${index}`).join(' ');

/** A Forja on the script whose provider also records what each call was sent. */
async function start(engine: TestDatabaseEngine, script: ScriptInput) {
  const provider = createScriptedProvider({ script });
  const sent: ModelRequest[] = [];
  const recording = {
    ...provider,
    stream: (request: ModelRequest, options: Parameters<typeof provider.stream>[1]) => {
      sent.push(request);
      return provider.stream(request, options);
    },
  };
  const forja = await startTestForja(engine, { provider: recording });
  const { projectId, sessionId } = await newSessionThroughApi(forja);
  await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
  return { forja, provider, sent, projectId, sessionId };
}

const post = (forja: Forja, sessionId: string, text: string) =>
  requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text });
const control = (forja: Forja, sessionId: string, turnId: string, verb: string) =>
  requestJson(forja, 'POST', `/api/sessions/${sessionId}/turns/${turnId}/${verb}`);
const turnIdOf = (log: SessionEvent[], type: string) => {
  const event = log.findLast((candidate) => candidate.type === type);
  if (event === undefined) throw new Error(`no ${type} in the log`);
  return (event.payload as { turn_id: string }).turn_id;
};
const reserved = async (forja: Forja) =>
  (
    await forja.database.query<{ tokens: number }>(
      `select coalesce(sum(reserved_tokens), 0)::float8 as tokens from token_usage where outcome = 'reserved'`,
    )
  ).rows[0]!.tokens;

describe.each(testDatabaseEngines())('turn control on $name', (engine) => {
  let forja: Forja | undefined;
  afterEach(async () => {
    await forja?.close();
    forja = undefined;
  });

  it('stops a streaming turn: the partial text is kept as its answer, nothing stays reserved, the next turn sees it', async () => {
    const started = await start(engine, {
      turns: [
        { agent: 'criativo', text: LONG, pace_ms: 30 },
        {
          agent: 'criativo',
          text: 'Certo.',
          expect: { messages: ['Conte', 'palavra0', 'E agora?'] },
        },
      ],
    });
    forja = started.forja;
    const { sessionId } = started;
    const firstDelta = new Promise<string>((resolve) =>
      forja!.liveTurns.subscribe(sessionId, (message) => {
        if (message.type === 'agent.delta') resolve(message.turn_id);
      }),
    );
    await post(forja, sessionId, 'Conte uma história');
    const turnId = await firstDelta;
    const stopped = await control(forja, sessionId, turnId, 'stop');
    expect(stopped.status).toBe(200);
    const event = stopped.body.events[0];
    expect(event).toMatchObject({ type: 'turn.stopped', payload: { turn_id: turnId, by: 'user' } });
    const partial = event.payload.text as string;
    expect(partial.startsWith('palavra0')).toBe(true);
    expect(LONG.startsWith(partial)).toBe(true);
    expect(partial.length).toBeLessThan(LONG.length);
    await forja.conversation.idle(sessionId);
    expect(await reserved(forja)).toBe(0);
    const usage = await forja.database.query<{ outcome: string }>(
      `select outcome from token_usage`,
    );
    expect(usage.rows.map((row) => row.outcome)).toEqual(['cancelled']);

    const again = await control(forja, sessionId, turnId, 'stop');
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'turn_not_running' } } });
    await post(forja, sessionId, 'E agora?');
    await forja.conversation.idle(sessionId);
    const log = await forja.eventLog.read(sessionId);
    expect(
      log
        .filter((e) => e.type === 'agent.response')
        .map((e) => (e.payload as { text: string }).text),
    ).toEqual(['Certo.']);
    expect(rehydrate(log).turns_in_progress).toEqual([]);
    started.provider.assertAllTurnsConsumed();
  });

  it('retries a failed turn once: the same turn answers, and a second retry is refused by the rule', async () => {
    const started = await start(engine, {
      turns: [
        { agent: 'criativo', fail: { status: 400, message: 'bad gateway day' } },
        { agent: 'criativo', text: 'Agora sim.', expect: { messages: ['Olá'] } },
      ],
    });
    forja = started.forja;
    const { sessionId } = started;
    await post(forja, sessionId, 'Olá');
    await forja.conversation.idle(sessionId);
    const failedTurn = turnIdOf(await forja.eventLog.read(sessionId), 'turn.failed');
    expect(await control(forja, sessionId, failedTurn, 'regenerate')).toMatchObject({
      status: 409,
      body: { error: { code: 'no_answer' } },
    });
    const retried = await control(forja, sessionId, failedTurn, 'retry');
    expect(retried).toMatchObject({
      status: 202,
      body: { turn_id: failedTurn, agent: 'criativo' },
    });
    await forja.conversation.idle(sessionId);
    const log = await forja.eventLog.read(sessionId);
    const lane = log.filter((e) => (e.payload as { turn_id?: string }).turn_id === failedTurn);
    expect(lane.map((e) => e.type)).toEqual([
      'turn.started',
      'turn.failed',
      'turn.ended',
      'turn.retried',
      'agent.response',
      'turn.ended',
    ]);
    expect(log.filter((e) => e.type === 'agent.response')).toHaveLength(1);
    expect(await control(forja, sessionId, failedTurn, 'retry')).toMatchObject({
      status: 409,
      body: { error: { code: 'turn_not_failed' } },
    });
    expect(await reserved(forja)).toBe(0);
    started.provider.assertAllTurnsConsumed();
  });

  it('regenerates the last answer: the same history is sent without it, the new one supersedes it, the log keeps both', async () => {
    const started = await start(engine, {
      turns: [
        { agent: 'criativo', text: 'Primeira resposta.' },
        { agent: 'criativo', text: 'Segunda resposta.', expect: { messages: ['Uma ideia'] } },
      ],
    });
    forja = started.forja;
    const { sessionId } = started;
    await post(forja, sessionId, 'Uma ideia');
    await forja.conversation.idle(sessionId);
    const firstTurn = turnIdOf(await forja.eventLog.read(sessionId), 'agent.response');
    const regenerated = await control(forja, sessionId, firstTurn, 'regenerate');
    expect(regenerated.status).toBe(202);
    expect(regenerated.body.events.map((e: SessionEvent) => e.type)).toEqual([
      'answer.superseded',
      'turn.started',
    ]);
    await forja.conversation.idle(sessionId);
    const sentText = JSON.stringify(started.sent[1]!.messages);
    expect(sentText).toContain('Uma ideia');
    expect(sentText).not.toContain('Primeira resposta.');
    expect(started.sent[1]!.messages).toEqual(started.sent[0]!.messages);
    const log = await forja.eventLog.read(sessionId);
    const answers = log.filter((e) => e.type === 'agent.response');
    expect(answers.map((e) => (e.payload as { text: string }).text)).toEqual([
      'Primeira resposta.',
      'Segunda resposta.',
    ]);
    const history = rehydrate(log).history.map((entry) => entry.content);
    expect(history).toEqual(['Uma ideia', 'Segunda resposta.']);
    expect(await control(forja, sessionId, firstTurn, 'regenerate')).toMatchObject({
      status: 409,
      body: { error: { code: 'not_last_turn' } },
    });
    started.provider.assertAllTurnsConsumed();
  });

  it("retries the PO's failed kickoff from where it failed: its handoff is completed, the backlog declared once", async () => {
    // The PO declares the backlog, then its next model call fails: its handoff stayed "accepted" (ADR 0220).
    const declared = UP_TO_ARQUITETO.findIndex((turn) => turn.agent === 'po') + 1;
    const script = [
      ...UP_TO_ARQUITETO.slice(0, declared),
      { agent: 'po', fail: { status: 400, message: 'the provider refused' } },
      ...UP_TO_ARQUITETO.slice(declared),
    ];
    const line = await startLine(engine, { turns: script });
    forja = { ...line.forja, close: line.close };
    const { sessionId } = await newSessionThroughApi(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    for (const text of LINE_MESSAGES) {
      await post(forja, sessionId, text);
      await forja.conversation.idle(sessionId);
    }
    const ready = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionId}/readiness?wait=true`,
    );
    await requestJson(forja, 'POST', `/api/handoffs/${ready.body.handoff.id}/accept`);
    await forja.conversation.idle(sessionId);
    const handoffs = async () =>
      (await requestJson(forja!, 'GET', `/api/sessions/${sessionId}/handoffs`)).body.handoffs.map(
        (handoff: { to_agent: string; status: string }) => [handoff.to_agent, handoff.status],
      );
    expect(await handoffs()).toEqual([['po', 'accepted']]);
    const failedTurn = turnIdOf(await forja.eventLog.read(sessionId), 'turn.failed');

    expect(await control(forja, sessionId, failedTurn, 'retry')).toMatchObject({ status: 202 });
    await forja.conversation.idle(sessionId);
    expect(await handoffs()).toEqual([
      ['po', 'completed'],
      ['arquiteto', 'offered'],
    ]);
    const log = await forja.eventLog.read(sessionId);
    const tools = log
      .filter((e) => e.type === 'tool.completed')
      .map((e) => (e.payload as { tool: string }).tool);
    expect(tools.filter((tool) => tool === 'declare_backlog')).toHaveLength(1);
    expect(rehydrate(log).turns_in_progress).toEqual([]);
    line.provider.assertAllTurnsConsumed();
  });

  it('answers 404 for an unknown turn or session and 400 naming a bad id', async () => {
    const started = await start(engine, { turns: [] });
    forja = started.forja;
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await control(forja, started.sessionId, unknown, 'retry')).toMatchObject({
      status: 404,
    });
    expect(await control(forja, unknown, unknown, 'stop')).toMatchObject({ status: 404 });
    const bad = await control(forja, started.sessionId, 'nope', 'regenerate');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('turnId');
  });
});

describe.each(testDatabaseEngines().filter((engine) => engine.name === 'postgres'))(
  'turn control across two processes on $name',
  (engine) => {
    it('stops a turn another process streams: the request is stored, the owner stops it and keeps the partial text', async () => {
      const database = await engine.open();
      const loaded = loadConfig({});
      if (!loaded.ok) throw new Error(loaded.error.message);
      const open = (script: ScriptInput) =>
        createForja(loaded.config, pino({ level: 'silent' }), {
          env: {},
          database,
          provider: createScriptedProvider({ script }),
        });
      const owner = await open({ turns: [{ agent: 'criativo', text: LONG, pace_ms: 50 }] });
      const other = await open({ turns: [] });
      try {
        const { sessionId } = await newSessionThroughApi(owner);
        await requestJson(owner, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
        const firstDelta = new Promise<string>((resolve) =>
          owner.liveTurns.subscribe(sessionId, (message) => {
            if (message.type === 'agent.delta') resolve(message.turn_id);
          }),
        );
        await post(owner, sessionId, 'Conte uma história');
        const turnId = await firstDelta;
        const asked = await control(other, sessionId, turnId, 'stop');
        expect(asked).toMatchObject({
          status: 202,
          body: { turn_id: turnId, events: [{ type: 'turn.stop_requested' }] },
        });
        await owner.conversation.idle(sessionId);
        const log = await owner.eventLog.read(sessionId);
        const stopped = log.filter((event) => event.type === 'turn.stopped');
        expect(stopped.map((event) => event.payload)).toMatchObject([
          { turn_id: turnId, by: 'user' },
        ]);
        const partial = (stopped[0]!.payload as { text: string }).text;
        expect(partial.startsWith('palavra0')).toBe(true);
        expect(partial.length).toBeLessThan(LONG.length);
        expect(log.filter((event) => event.type === 'agent.response')).toEqual([]);
        expect(rehydrate(log).turns_in_progress).toEqual([]);
        expect(await reserved(owner)).toBe(0);
      } finally {
        await other.close();
        await owner.close();
        await database.close();
      }
    });
  },
);
