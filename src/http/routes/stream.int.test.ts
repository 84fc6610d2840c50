import type { EventSourceMessage } from 'eventsource-parser/stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Forja } from '../../composition.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson, startTestForja } from '../../testing/forja-harness.ts';
import { readServerSentEvents } from '../../testing/read-server-sent-events.ts';

describe.each(testDatabaseEngines())('session stream (SSE) on $name', (engine) => {
  let forja: Forja;
  beforeAll(async () => {
    forja = await startTestForja(engine);
  });
  afterAll(() => forja.close());

  async function newSession(): Promise<string> {
    const project = await requestJson(forja, 'POST', '/api/projects', { name: 'p' });
    return (await requestJson(forja, 'POST', `/api/projects/${project.body.id}/sessions`, {})).body
      .id;
  }
  const post = (sessionId: string, text: string) =>
    requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text });
  const open = (sessionId: string, headers: Record<string, string> = {}) =>
    forja.app.request(`/api/sessions/${sessionId}/stream`, { headers });

  it('replays stored events, then streams new ones with their seq as id, and live deltas without one', async () => {
    const sessionId = await newSession();
    await post(sessionId, 'before connecting');
    const response = await open(sessionId);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const stream = readServerSentEvents(response);
    const replayed = await stream.take(2);
    expect(replayed.map((message) => [message.id, message.event])).toEqual([
      ['1', 'session.event'],
      ['2', 'session.event'],
    ]);

    await post(sessionId, 'while connected');
    const live = await stream.next();
    expect(live.id).toBe('3');
    expect(JSON.parse(live.data)).toMatchObject({
      seq: 3,
      type: 'chat.message',
      payload: { text: 'while connected' },
    });

    forja.liveTurns.publish({
      type: 'agent.delta',
      session_id: sessionId,
      agent: 'criativo',
      turn_id: 't1',
      text: 'Hel',
    });
    const delta = await stream.next();
    expect(delta).toMatchObject({ event: 'agent.delta', id: undefined });
    expect(JSON.parse(delta.data)).toMatchObject({ text: 'Hel', agent: 'criativo' });
    await stream.close();
  });

  it('gives a tab that connects mid-turn the text streamed so far, then the rest, like the tab that was there', async () => {
    const sessionId = await newSession();
    const publish = (text: string) =>
      forja.liveTurns.publish({
        type: 'agent.delta',
        session_id: sessionId,
        agent: 'criativo',
        turn_id: 'mid',
        text,
      });
    const early = readServerSentEvents(await open(sessionId));
    await early.take(1);
    publish('Olá, ');
    publish('tudo ');
    const late = readServerSentEvents(await open(sessionId));
    const [caughtUp, replayed] = (await late.take(2)) as [EventSourceMessage, EventSourceMessage];
    expect(caughtUp).toMatchObject({ event: 'agent.partial', id: undefined });
    expect(JSON.parse(caughtUp.data)).toEqual({
      session_id: sessionId,
      agent: 'criativo',
      turn_id: 'mid',
      text: 'Olá, tudo ',
    });
    expect(replayed.event).toBe('session.event');
    publish('bem?');
    const earlyText = (await early.take(3))
      .map((message) => JSON.parse(message.data).text)
      .join('');
    const lateText = JSON.parse(caughtUp.data).text + JSON.parse((await late.next()).data).text;
    expect(lateText).toBe(earlyText);
    expect(lateText).toBe('Olá, tudo bem?');

    forja.liveTurns.publish({
      type: 'agent.done',
      session_id: sessionId,
      agent: 'criativo',
      turn_id: 'mid',
      status: 'completed',
    });
    const after = readServerSentEvents(await open(sessionId));
    expect((await after.next()).event).toBe('session.event');
    expect(forja.liveTurns.partials(sessionId)).toEqual([]);
    await Promise.all([early.close(), late.close(), after.close()]);
  });

  it('resumes after Last-Event-ID with no gap and no duplicate', async () => {
    const sessionId = await newSession();
    for (const text of ['one', 'two', 'three']) await post(sessionId, text);
    const resumed = readServerSentEvents(await open(sessionId, { 'Last-Event-ID': '2' }));
    await post(sessionId, 'four');
    const messages = await resumed.take(3);
    expect(messages.map((message) => Number(message.id))).toEqual([3, 4, 5]);
    await resumed.close();
  });

  it('does not mix sessions', async () => {
    const mine = await newSession();
    const other = await newSession();
    const stream = readServerSentEvents(await open(mine, { 'Last-Event-ID': '1' }));
    await post(other, 'not for you');
    forja.liveTurns.publish({
      type: 'agent.delta',
      session_id: other,
      agent: 'criativo',
      turn_id: 't',
      text: 'nor this',
    });
    await post(mine, 'for you');
    const message = await stream.next();
    expect(JSON.parse(message.data)).toMatchObject({
      session_id: mine,
      payload: { text: 'for you' },
    });
    await stream.close();
  });

  it.each([
    [{ 'Last-Event-ID': 'abc' }, '', 'last-event-id'],
    [{ 'Last-Event-ID': '-3' }, '', 'last-event-id'],
    [{ 'Last-Event-ID': '0x10' }, '', 'last-event-id'],
    [{ 'Last-Event-ID': '2147483648' }, '', 'last-event-id'],
    [{ 'Last-Event-ID': '2' }, '', 'last-event-id'],
    [{}, '?after=0x1', 'after'],
    [{}, '?after=99999999999', 'after'],
    [{}, '?after=2', 'after'],
  ])(
    'refuses a bad resume point, or one past the last event (seq 1): %o %s',
    async (headers, query, field) => {
      const sessionId = await newSession();
      const response = await forja.app.request(`/api/sessions/${sessionId}/stream${query}`, {
        headers,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'invalid_field', field } });
    },
  );

  it('answers 404 for an unknown session and 400 for a bad id', async () => {
    expect((await open('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await open('nope')).status).toBe(400);
  });
});

describe.each(testDatabaseEngines().filter((engine) => engine.name === 'postgres'))(
  'session stream (SSE) on $name through a lost database connection',
  (engine) => {
    let forja: Forja;
    beforeAll(async () => {
      forja = await startTestForja(engine);
    });
    afterAll(() => forja.close());

    async function newSession(): Promise<string> {
      const project = await requestJson(forja, 'POST', '/api/projects', { name: 'p' });
      return (await requestJson(forja, 'POST', `/api/projects/${project.body.id}/sessions`, {}))
        .body.id;
    }
    const post = (sessionId: string, text: string) =>
      requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text });
    const open = (sessionId: string, headers: Record<string, string> = {}) =>
      forja.app.request(`/api/sessions/${sessionId}/stream`, { headers });

    it('keeps serving and streaming when the LISTEN connections are terminated', async () => {
      const sessionId = await newSession();
      const stream = readServerSentEvents(await open(sessionId, { 'Last-Event-ID': '1' }));
      const terminated = await forja.database.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and query like 'listen %'`,
      );
      expect(terminated.rows.length).toBeGreaterThanOrEqual(1);
      // Stored while the listeners are away or coming back: the stream gets it, from the reconnection's catch-up
      // or from the next notification.
      expect((await post(sessionId, 'during the outage')).status).toBe(201);
      const message = await stream.next();
      expect(JSON.parse(message.data)).toMatchObject({
        seq: 2,
        payload: { text: 'during the outage' },
      });
      await post(sessionId, 'after it');
      expect(JSON.parse((await stream.next()).data)).toMatchObject({
        seq: 3,
        payload: { text: 'after it' },
      });
      await stream.close();
    });
  },
);
