import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { createLiveTurns, type LiveTurnMessage } from './live-turns.ts';
import { shareLiveTurns } from './shared-live-turns.ts';

async function until(condition: () => boolean): Promise<void> {
  for (const end = Date.now() + 30_000; Date.now() < end; ) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the awaited condition never held');
}

describe.each(testDatabaseEngines())('live turns shared across processes on $name', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(async () => {
    await database.close();
  });

  it('gives a listener of another process every delta of a turn, once, and its partial text while it runs', async () => {
    const here = await shareLiveTurns(createLiveTurns(), database, 'process-a');
    const there = await shareLiveTurns(createLiveTurns(), database, 'process-b');
    const seenThere: LiveTurnMessage[] = [];
    const seenHere: LiveTurnMessage[] = [];
    there.subscribe('s1', (message) => seenThere.push(message));
    here.subscribe('s1', (message) => seenHere.push(message));
    const words = Array.from({ length: 30 }, (_, index) => `palavra${index} `);
    for (const word of words)
      here.publish({
        type: 'agent.delta',
        session_id: 's1',
        agent: 'criativo',
        turn_id: 't1',
        text: word,
      });
    const text = () =>
      seenThere.map((message) => (message.type === 'agent.delta' ? message.text : '')).join('');
    await until(() => text() === words.join(''));
    expect(there.partials('s1')).toEqual([
      { session_id: 's1', agent: 'criativo', turn_id: 't1', text: words.join('') },
    ]);
    expect(there.partials('other')).toEqual([]);
    here.publish({
      type: 'agent.done',
      session_id: 's1',
      agent: 'criativo',
      turn_id: 't1',
      status: 'completed',
    });
    await until(() => seenThere.some((message) => message.type === 'agent.done'));
    expect(there.partials('s1')).toEqual([]);
    // The process that streamed hears its own messages once, from itself, not again through the database.
    expect(seenHere).toHaveLength(words.length + 1);
    await Promise.all([here.close(), there.close()]);
  });

  /** The database, keeping the live messages this process sends (not its announcements). */
  function sendingMessages() {
    const sent: LiveTurnMessage[] = [];
    const recording: Database = {
      ...database,
      query: (sql, params) => {
        const payload = params?.[1];
        if (sql.includes('pg_notify') && typeof payload === 'string') {
          const parsed = JSON.parse(payload) as { messages?: LiveTurnMessage[] };
          sent.push(...(parsed.messages ?? []));
        }
        return database.query(sql, params);
      },
    };
    return { sent, recording };
  }

  const delta = (sessionId: string, turnId: string, text: string): LiveTurnMessage => ({
    type: 'agent.delta',
    session_id: sessionId,
    agent: 'criativo',
    turn_id: turnId,
    text,
  });
  const done = (sessionId: string, turnId: string): LiveTurnMessage => ({
    type: 'agent.done',
    session_id: sessionId,
    agent: 'criativo',
    turn_id: turnId,
    status: 'completed',
  });
  const textOf = (messages: LiveTurnMessage[]) =>
    messages.map((message) => (message.type === 'agent.delta' ? message.text : '')).join('');

  it('sends nothing of a turn no other process watches; one that begins to watch mid-turn gets its text so far, then the rest, once', async () => {
    const { sent, recording } = sendingMessages();
    const here = await shareLiveTurns(createLiveTurns(), recording, 'process-a', {
      flushMs: 5,
    });
    const there = await shareLiveTurns(createLiveTurns(), database, 'process-b');
    // The stream of this process watches; no other process does.
    here.subscribe('s2', () => undefined);
    for (const word of ['um ', 'dois ', 'três ']) here.publish(delta('s2', 't2', word));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent).toEqual([]);

    const seenThere: LiveTurnMessage[] = [];
    there.subscribe('s2', (message) => seenThere.push(message));
    await until(() => textOf(seenThere) === 'um dois três ');
    expect(there.partials('s2')).toEqual([
      { session_id: 's2', agent: 'criativo', turn_id: 't2', text: 'um dois três ' },
    ]);
    for (const word of ['quatro ', 'cinco']) here.publish(delta('s2', 't2', word));
    here.publish(done('s2', 't2'));
    await until(() => seenThere.some((message) => message.type === 'agent.done'));
    expect(textOf(seenThere)).toBe('um dois três quatro cinco');
    expect(there.partials('s2')).toEqual([]);
    // What went out: the catch-up and the rest of the turn, no more.
    expect(textOf(sent)).toBe('um dois três quatro cinco');
    await Promise.all([here.close(), there.close()]);
  });

  it('says a stream is announced only once its watch went out, and a turn run elsewhere then streams to it', async () => {
    let openGate = () => {};
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    // The announcements of this process wait at the gate, as they would behind a busy pool.
    const held: Database = {
      ...database,
      query: async (sql, params) => {
        if (sql.includes('pg_notify')) await gate;
        return database.query(sql, params);
      },
    };
    const watcher = await shareLiveTurns(createLiveTurns(), held, 'process-w');
    const runner = await shareLiveTurns(createLiveTurns(), database, 'process-r', { flushMs: 5 });
    const seen: LiveTurnMessage[] = [];
    watcher.subscribe('s9', (message) => seen.push(message));
    let announced = false;
    const announcing = watcher.announced('s9').then(() => {
      announced = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(announced).toBe(false);
    openGate();
    await announcing;
    // Announced, the watch is on the wire: a turn the runner streams now reaches the watcher.
    runner.publish(delta('s9', 't9', 'tudo '));
    runner.publish(delta('s9', 't9', 'certo'));
    await until(() => textOf(seen) === 'tudo certo');
    await Promise.all([watcher.close(), runner.close()]);
  });

  it('keeps sending while the watcher renews, stops once it is gone, and a process started later learns of it', async () => {
    const renew = { watchRenewMs: 200, flushMs: 5 };
    const there = await shareLiveTurns(createLiveTurns(), database, 'process-b', renew);
    const seenThere: LiveTurnMessage[] = [];
    const unsubscribe = there.subscribe('s3', (message) => seenThere.push(message));
    // Started after the watcher announced: its hello makes the watcher say so again.
    const { sent, recording } = sendingMessages();
    const here = await shareLiveTurns(createLiveTurns(), recording, 'process-c', renew);
    // Published before it heard of the watcher: the announcement its hello brings sends the turn's text so far.
    here.publish(delta('s3', 't3', 'primeira'));
    await until(() => textOf(seenThere) === 'primeira');
    here.publish(done('s3', 't3'));
    await until(() => seenThere.some((message) => message.type === 'agent.done'));
    // Well past the three renewals an announcement holds for, a new turn still goes out: the renewals kept it.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    here.publish(delta('s3', 't4', ' segunda'));
    here.publish(done('s3', 't4'));
    await until(() => seenThere.filter((message) => message.type === 'agent.done').length === 2);
    expect(textOf(seenThere)).toBe('primeira segunda');

    unsubscribe();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const before = sent.length;
    here.publish(delta('s3', 't5', 'ninguém vê'));
    here.publish(done('s3', 't5'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent.slice(before)).toEqual([]);
    await Promise.all([here.close(), there.close()]);
  });
});
