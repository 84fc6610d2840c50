import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createForja, type Forja } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import { createScriptedProvider } from '../gateway/providers/index.ts';
import { SESSION_EVENTS, type NewSessionEvent } from '../domain/conversation/index.ts';
import { MEMORY_EVENTS } from '../domain/memory/index.ts';
import { appendEvents } from '../store/event-log/append-events.ts';
import { createEventLog } from '../store/index.ts';
import type { Database } from '../store/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { readServerSentEvents } from '../testing/read-server-sent-events.ts';
import { newSessionThroughApi } from '../testing/scripted-forja.ts';

/** Commits with no NOTIFY, as a process that died before sending it: nothing hears of the append. */
function appendUnheard(database: Database, sessionId: string, events: NewSessionEvent[]) {
  return appendEvents(database, sessionId, events, {}, [], false, {
    announce: () => undefined,
    flushed: async () => undefined,
  });
}

/** Pages a session view reads (`refreshSessionView`); a stream's feed reads 500 at a time, a replay 200. */
const VIEW_PAGE = 1000;

/**
 * The same database, counting reads of session events (a view's, the others) and of `sessions` rows, and the
 * appends refused for their expected seq.
 */
function countingReads(database: Database) {
  const counts = {
    views: 0,
    otherEventReads: 0,
    sessionRows: 0,
    conflicts: 0,
    appends: [] as string[][],
  };
  const hooks: {
    beforeAppend?: (params: unknown[] | undefined) => Promise<void>;
  } = {};
  return {
    counts,
    hooks,
    database: {
      ...database,
      query: async <Row>(sql: string, params?: unknown[]) => {
        if (sql.includes('from session_events where session_id')) {
          if (params?.[2] === VIEW_PAGE) counts.views += 1;
          else counts.otherEventReads += 1;
        }
        if (sql.includes('from sessions where id')) counts.sessionRows += 1;
        if (sql.includes('forja_append_event_batch')) {
          await hooks.beforeAppend?.(params);
          // The types of each append statement's events, in order.
          counts.appends.push(
            (JSON.parse(String(params?.[1])) as { events: { type: string }[] }[]).flatMap(
              (append) => append.events.map((event) => event.type),
            ),
          );
        }
        const result = await database.query<Row>(sql, params);
        // An append refused because the session's head was not the expected seq.
        if (sql.includes('forja_append_event_batch')) {
          counts.conflicts += (result.rows as { refusal?: string | null }[]).filter(
            (row) => row.refusal === 'conflict',
          ).length;
        }
        return result;
      },
    } satisfies Database,
  };
}

/**
 * Decisions 0210 and 0262: a message to an idle agent, in a process that has heard of no append its view
 * lacks, reads none of the session's events — the message and its turn decide on the kept view and append
 * expecting its seq — and carries the view forward with its own appends; an open stream of the same process gets
 * the appended events without reading them back. An append it heard of (another process's) costs the message one
 * read; one it never heard of (its process died before its NOTIFY) is found by the expected seq, and read.
 */
describe.each(testDatabaseEngines())('the reads of one message, on $name', (engine) => {
  let forja: Forja | undefined;
  let database: Database | undefined;
  afterEach(async () => {
    await forja?.close();
    await database?.close();
    forja = database = undefined;
  });

  /** A session with Criativo active and an open stream; the model answers once, sent `expected` (null: never asked). */
  async function activeSession(expected: string[] | null, answers = 1) {
    const loaded = loadConfig({});
    if (!loaded.ok) throw new Error(loaded.error.message);
    database = await engine.open();
    const counted = countingReads(database);
    const provider = createScriptedProvider({
      script: {
        turns:
          expected === null
            ? Array.from({ length: answers - 1 }, () => ({ agent: 'criativo', text: 'Hum.' }))
            : [{ agent: 'criativo', text: 'Quem compra o pão?', expect: { messages: expected } }],
      },
    });
    forja = await createForja(loaded.config, pino({ level: 'silent' }), {
      env: {},
      database: counted.database,
      provider,
    });
    const { sessionId } = await newSessionThroughApi(forja);
    const stream = readServerSentEvents(
      await forja.app.request(`/api/sessions/${sessionId}/stream`),
    );
    expect((await stream.next()).data).toContain('session.created');
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    // Delivered: the stream's feed is past every append so far and reads nothing now.
    expect((await stream.next()).data).toContain('agent.activated');
    await forja.conversation.idle(sessionId);
    return { forja, database, counted, provider, sessionId, stream };
  }

  /** Posts the message and reads the stream to the turn's end; what the stream showed, and the reads it cost. */
  async function postAndAnswer(session: Awaited<ReturnType<typeof activeSession>>) {
    const { forja, sessionId, stream, counted } = session;
    const counts = { ...counted.counts, appends: counted.counts.appends.length };
    const posted = await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'Quero vender pão de madrugada',
    });
    expect(posted.status).toBe(201);
    const seen: string[] = [];
    // The stored `turn.ended` says the turn is over (ADR 0422); the live `agent.done` closes its stream.
    while (!seen.includes('agent.done') || !seen.includes('turn.ended')) {
      const message = await stream.next();
      seen.push(message.event === 'session.event' ? JSON.parse(message.data).type : message.event!);
    }
    await forja.conversation.idle(sessionId);
    await stream.close();
    session.provider.assertAllTurnsConsumed();
    return {
      posted,
      shown: seen.filter((type) => !type.startsWith('agent.d')),
      views: counted.counts.views - counts.views,
      sessionRows: counted.counts.sessionRows - counts.sessionRows,
      otherEventReads: counted.counts.otherEventReads - counts.otherEventReads,
      conflicts: counted.counts.conflicts - counts.conflicts,
      appends: counted.counts.appends.slice(counts.appends),
    };
  }

  const otherMessage = SESSION_EVENTS.chatMessage.create('user', {
    v: 1,
    text: 'E entrego de bicicleta',
    to: 'criativo',
  });
  /** Criativo's turn as another process starts it. */
  const turnElsewhere = SESSION_EVENTS.turnStarted.create('criativo', {
    v: 1,
    agent: 'criativo',
    turn_id: 'turn-elsewhere',
    kind: 'message',
  });
  /** What the model is sent when the other message is in the log before the posted one. */
  const bothMessages = [
    'user: [#3] E entrego de bicicleta',
    'user: [#4] Quero vender pão de madrugada',
  ];

  it("reads none of the session's events for the message nor its turn; the stream reads none of them", async () => {
    const session = await activeSession(['user: [#3] Quero vender pão de madrugada']);
    const result = await postAndAnswer(session);
    expect(result.shown).toEqual(['chat.message', 'turn.started', 'agent.response', 'turn.ended']);
    // The message and its turn's start commit in one statement (ADR 0265); the answer in another.
    expect(result.appends).toEqual([
      ['chat.message', 'turn.started'],
      ['agent.response', 'turn.ended'],
    ]);
    expect(result.views).toBe(0);
    expect(result.sessionRows).toBe(0);
    expect(result.otherEventReads).toBe(0);
    expect(result.conflicts).toBe(0);
  });

  it('reads once after hearing of an append made elsewhere, and the model sees it', async () => {
    const session = await activeSession(bothMessages);
    // Another process's append (its own log over the same database), heard: the stream shows it.
    await createEventLog(session.database).append(session.sessionId, [otherMessage]);
    expect(JSON.parse((await session.stream.next()).data).type).toBe('chat.message');
    const result = await postAndAnswer(session);
    expect(result.shown).toEqual(['chat.message', 'turn.started', 'agent.response', 'turn.ended']);
    expect(result.views).toBe(1);
    // What was heard was read before deciding: no append was refused for its seq.
    expect(result.conflicts).toBe(0);
  });

  it('finds an append it never heard of by the expected seq: reads, stores the message after it, and the model sees both', async () => {
    const session = await activeSession(bothMessages);
    await appendUnheard(session.database, session.sessionId, [otherMessage]);
    const result = await postAndAnswer(session);
    expect(result.posted.body).toMatchObject({ seq: 4, type: 'chat.message' });
    // The stream's feed catches up on the unheard event when the message's append does not follow it.
    expect(result.shown).toEqual([
      'chat.message',
      'chat.message',
      'turn.started',
      'agent.response',
      'turn.ended',
    ]);
    expect(result.views).toBe(1);
    // The message's first append, on the view that lacked the unheard event, was refused for its seq.
    expect(result.conflicts).toBe(1);
  });

  it('refuses on what it never heard of: a session ended elsewhere, unheard, takes no message', async () => {
    const session = await activeSession(null);
    await appendUnheard(session.database, session.sessionId, [
      MEMORY_EVENTS.sessionEnded.create('user', { v: 1, reason: 'completed' }),
    ]);
    const posted = await requestJson(
      session.forja,
      'POST',
      `/api/sessions/${session.sessionId}/messages`,
      { text: 'Ainda aí?' },
    );
    expect(posted.status).toBe(409);
    expect(posted.body).toMatchObject({ error: { code: 'session_ended' } });
    const events = await createEventLog(session.database).read(session.sessionId);
    expect(events.map((event) => event.type).slice(-1)).toEqual(['session.ended']);
    await session.stream.close();
    session.provider.assertAllTurnsConsumed();
  });

  it("starts no second turn in a lane another process took unheard: the message and its turn expect the kept view's seq", async () => {
    const session = await activeSession(null);
    // Just before the message and its turn commit, another process starts Criativo's turn and dies before its NOTIFY.
    session.counted.hooks.beforeAppend = async (params) => {
      if (!String(params?.[1]).includes('"chat.message"')) return;
      session.counted.hooks.beforeAppend = undefined;
      await appendUnheard(session.database, session.sessionId, [turnElsewhere]);
    };
    const before = { ...session.counted.counts };
    const posted = await requestJson(
      session.forja,
      'POST',
      `/api/sessions/${session.sessionId}/messages`,
      { text: 'Quero vender pão de madrugada' },
    );
    expect(posted.status).toBe(201);
    await session.forja.conversation.idle(session.sessionId);
    const events = await createEventLog(session.database).read(session.sessionId);
    const started = events.filter((event) => event.type === 'turn.started');
    expect(started.map((event) => (event.payload as { turn_id: string }).turn_id)).toEqual([
      'turn-elsewhere',
    ]);
    // The message is stored once, after the other turn: decided again on a read, its own turn did not start.
    expect(events.filter((event) => event.type === 'chat.message')).toHaveLength(1);
    expect(events.at(-1)?.type).toBe('chat.message');
    // The append of the message with its turn, on the kept view, was refused for its seq — once.
    expect(session.counted.counts.conflicts - before.conflicts).toBe(1);
    await session.stream.close();
    session.provider.assertAllTurnsConsumed();
  });

  it("starts no second turn when another process took the lane unheard while the message waited for it: the turn's append expects the kept view's seq", async () => {
    // The first message goes with its turn (ADR 0265); the second, posted while that turn runs, finds the lane
    // busy and is stored alone; its turn starts when the first ends, decided on the kept view. What that turn is
    // sent is not what this test is about: the model answers the first turn, and nothing else.
    const session = await activeSession(null, 2);
    const second = Promise.withResolvers<void>();
    let gated = false;
    session.counted.hooks.beforeAppend = async (params) => {
      const types = (JSON.parse(String(params?.[1])) as { events: { type: string }[] }[]).flatMap(
        (append) => append.events.map((event) => event.type),
      );
      // The first turn's answer waits until the second message is stored: the lane is busy meanwhile.
      if (types.includes('agent.response') && !gated) {
        gated = true;
        await second.promise;
      }
      // Just before the waiting message's turn starts, another process starts one and dies before its NOTIFY.
      if (types.length === 1 && types[0] === 'turn.started') {
        session.counted.hooks.beforeAppend = undefined;
        await appendUnheard(session.database, session.sessionId, [turnElsewhere]);
      }
    };
    const post = (text: string) =>
      requestJson(session.forja, 'POST', `/api/sessions/${session.sessionId}/messages`, { text });
    expect((await post('Quero vender pão de madrugada')).status).toBe(201);
    expect((await post('E entrego de bicicleta')).status).toBe(201);
    second.resolve();
    await session.forja.conversation.idle(session.sessionId);
    const events = await createEventLog(session.database).read(session.sessionId);
    const started = events
      .filter((event) => event.type === 'turn.started')
      .map((event) => (event.payload as { turn_id: string }).turn_id);
    // The first message's turn, and the other process's: the waiting message's own turn did not start.
    expect(started).toHaveLength(2);
    expect(started.at(-1)).toBe('turn-elsewhere');
    expect(events.filter((event) => event.type === 'chat.message')).toHaveLength(2);
    await session.stream.close();
    session.provider.assertAllTurnsConsumed();
  });
});
