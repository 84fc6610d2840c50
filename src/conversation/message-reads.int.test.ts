import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createForja, type Forja } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import { createScriptedProvider } from '../gateway/providers/index.ts';
import type { Database } from '../store/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { readServerSentEvents } from '../testing/read-server-sent-events.ts';
import { newSessionThroughApi } from '../testing/scripted-forja.ts';

/** Pages a session view reads (`refreshSessionView`); a stream's feed reads 500 at a time, a replay 200. */
const VIEW_PAGE = 1000;

/** The same database, counting reads of session events (a view's, the others) and of `sessions` rows. */
function countingReads(database: Database) {
  const counts = { views: 0, otherEventReads: 0, sessionRows: 0 };
  return {
    counts,
    database: {
      ...database,
      query: (sql, params) => {
        if (sql.includes('from session_events where session_id')) {
          if (params?.[2] === VIEW_PAGE) counts.views += 1;
          else counts.otherEventReads += 1;
        }
        if (sql.includes('from sessions where id')) counts.sessionRows += 1;
        return database.query(sql, params);
      },
    } satisfies Database,
  };
}

/**
 * Issue 19 (decision 0210): a message to an idle agent reads the session's events twice — the message's view
 * and the turn's, at its start — and carries the view forward with its own appends; an open stream of the
 * same process gets the appended events without reading them back.
 */
describe.each(testDatabaseEngines())('the reads of one message, on $name', (engine) => {
  let forja: Forja | undefined;
  let database: Database | undefined;
  afterEach(async () => {
    await forja?.close();
    await database?.close();
    forja = database = undefined;
  });

  it("reads the session's events once for the message and once for its turn; the stream reads none of them", async () => {
    const loaded = loadConfig({});
    if (!loaded.ok) throw new Error(loaded.error.message);
    database = await engine.open();
    const counted = countingReads(database);
    const provider = createScriptedProvider({
      script: {
        turns: [
          {
            agent: 'criativo',
            text: 'Quem compra o pão?',
            expect: { messages: ['user: [#3] Quero vender pão de madrugada'] },
          },
        ],
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

    const before = { ...counted.counts };
    const posted = await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'Quero vender pão de madrugada',
    });
    expect(posted.status).toBe(201);
    const seen: string[] = [];
    while (!seen.includes('agent.done') || !seen.includes('agent.response')) {
      const message = await stream.next();
      seen.push(message.event === 'session.event' ? JSON.parse(message.data).type : message.event!);
    }
    await forja.conversation.idle(sessionId);
    expect(seen.filter((type) => !type.startsWith('agent.d'))).toEqual([
      'chat.message',
      'turn.started',
      'agent.response',
    ]);
    expect(seen).toContain('agent.delta');
    expect(counted.counts.views - before.views).toBe(2);
    expect(counted.counts.sessionRows - before.sessionRows).toBe(0);
    expect(counted.counts.otherEventReads - before.otherEventReads).toBe(0);
    provider.assertAllTurnsConsumed();
    await stream.close();
  });
});
