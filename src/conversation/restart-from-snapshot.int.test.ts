import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createForja, type Forja } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import { SESSION_EVENTS } from '../domain/conversation/index.ts';
import { createScriptedProvider, type ScriptedProvider } from '../gateway/providers/index.ts';
import type { Database } from '../store/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { newSessionThroughApi } from '../testing/scripted-forja.ts';

/** The database, counting the events a session view's reads return (pages of 1,000) and where each starts. */
function countingViewReads(database: Database) {
  const counts = { events: 0, after: [] as number[] };
  const counted: Database = {
    ...database,
    query: async <Row>(sql: string, params?: unknown[]) => {
      const result = await database.query<Row>(sql, params);
      if (sql.includes('from session_events where session_id') && params?.[2] === 1000) {
        counts.events += result.rows.length;
        counts.after.push(Number(params[1]));
      }
      return result;
    },
  };
  return { counted, counts };
}

/**
 * ADR 0426 through the whole process: a Forja that stops writes its sessions' snapshots; the next one over the
 * same database answers the first message from the snapshot and the events after it, and the model is sent
 * the same history as from the whole log.
 */
describe.each(testDatabaseEngines())('a restart from snapshots, on $name', (engine) => {
  let database: Database;
  let sessionId: string;
  let forja: Forja | undefined;
  /** The view reads of the process started last. */
  let reads = { events: 0, after: [] as number[] };
  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(async () => {
    await forja?.close();
    await database.close();
  });

  /** A new process over the database, its model answering once and expecting the session's first message. */
  async function start(): Promise<{ forja: Forja; provider: ScriptedProvider }> {
    const loaded = loadConfig({});
    if (!loaded.ok) throw new Error(loaded.error.message);
    const { counted, counts } = countingViewReads(database);
    reads = counts;
    const provider = createScriptedProvider({
      script: {
        turns: [{ agent: 'criativo', text: 'Hum.', expect: { messages: ['pergunta 0', 'agora'] } }],
      },
    });
    forja = await createForja(loaded.config, pino({ level: 'silent' }), {
      env: {},
      database: counted,
      provider,
    });
    return { forja, provider };
  }

  async function message(started: { forja: Forja; provider: ScriptedProvider }) {
    const posted = await requestJson(started.forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'E agora?',
      to: 'criativo',
    });
    expect(posted.status).toBe(201);
    await started.forja.conversation.idle(sessionId);
    started.provider.assertAllTurnsConsumed();
    await started.forja.close();
    forja = undefined;
  }

  const head = async () =>
    (
      await database.query<{ seq: number }>(
        'select max(seq) as seq from session_events where session_id = $1',
        [sessionId],
      )
    ).rows[0]!.seq;

  it('writes the snapshots when it stops, and the next process reads only the events after them', async () => {
    const first = await start();
    ({ sessionId } = await newSessionThroughApi(first.forja));
    await requestJson(first.forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    await first.forja.conversation.idle(sessionId);
    await first.forja.eventLog.append(
      sessionId,
      Array.from({ length: 1_200 }, (_, index) =>
        SESSION_EVENTS.chatMessage.create('user', { v: 1, text: `pergunta ${index}` }),
      ),
    );
    await message(first);
    const stopped = await head();
    expect((await database.query('select last_seq from session_view_snapshots')).rows).toEqual([
      { last_seq: stopped },
    ]);

    await message(await start());
    expect(reads.after[0]).toBe(stopped);
    expect(reads.events).toBeLessThan(20);
  });

  it('folds the whole log when the snapshots were deleted, and answers the same', async () => {
    await database.query('delete from session_view_snapshots');
    const atStart = await head();
    await message(await start());
    expect(reads.after[0]).toBe(0);
    expect(reads.events).toBeGreaterThanOrEqual(atStart);
  });
});
