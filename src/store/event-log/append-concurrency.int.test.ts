import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database.ts';
import { createProject } from '../projects/projects.ts';
import { createSession } from '../projects/sessions.ts';
import { testDatabaseEngines } from '../testing/test-databases.ts';
import { createEventLog } from './event-log.ts';
import { SESSION_EVENTS_CHANNEL } from './event-notifications.ts';

/** Waits for a condition without a deadline of its own: the test's timeout is the only limit. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const message = (text: string) => ({ type: 'chat.message', actor: 'user', payload: { text } });

/** The same database, counting the calls of the append function that go through it. */
function countingAppendCalls(database: Database): { database: Database; calls: () => number } {
  let calls = 0;
  return {
    database: {
      ...database,
      query: (sql, params) => {
        if (sql.includes('forja_append_events')) calls += 1;
        return database.query(sql, params);
      },
    },
    calls: () => calls,
  };
}

describe.each(testDatabaseEngines())(
  'concurrent appends and their notifications on $name',
  (engine) => {
    let database: Database;

    beforeAll(async () => {
      database = await engine.open();
    });
    afterAll(() => database.close());

    async function newSession(): Promise<string> {
      const project = await createProject(database, { name: 'p' });
      return (await createSession(database, { projectId: project.id })).id;
    }

    it('queues the appends of one process to one session: 40 at once are 40 calls, none retried', async () => {
      const counted = countingAppendCalls(database);
      const eventLog = createEventLog(counted.database);
      const sessionId = await newSession();
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          eventLog.append(sessionId, [message(`m${index}`)]),
        ),
      );
      expect(outcomes.map((outcome) => outcome.success && outcome.lastSeq)).toEqual(
        Array.from({ length: 40 }, (_, index) => index + 2),
      );
      expect(counted.calls()).toBe(40);
    });

    it('keeps seqs gap-free and unique when appenders of several processes race on one session', async () => {
      const sessionId = await newSession();
      const processes = Array.from({ length: 5 }, () => createEventLog(database));
      const outcomes = await Promise.all(
        processes.flatMap((eventLog, process) =>
          Array.from({ length: 10 }, (_, index) =>
            eventLog.append(sessionId, [message(`p${process}-${index}`)]),
          ),
        ),
      );
      expect(outcomes.every((outcome) => outcome.success)).toBe(true);
      const eventLog = createEventLog(database);
      expect((await eventLog.read(sessionId)).map((event) => event.seq)).toEqual(
        Array.from({ length: 51 }, (_, index) => index + 1),
      );
    });

    it('notifies <session>:<last seq> for appends that commit by themselves and for appends inside a transaction', async () => {
      const heard: string[] = [];
      const unlisten = await database.listen(SESSION_EVENTS_CHANNEL, (payload) =>
        heard.push(payload),
      );
      const eventLog = createEventLog(database);
      const sessions = await Promise.all(Array.from({ length: 8 }, () => newSession()));
      await Promise.all(
        sessions.map(async (sessionId) => {
          for (let index = 0; index < 3; index += 1)
            await eventLog.append(sessionId, [message(`m${index}`)]);
        }),
      );
      // Notifications may be coalesced: each session is heard at its last seq (4) at least.
      await until(() => sessions.every((sessionId) => heard.includes(`${sessionId}:4`)));
      const within = sessions[0]!;
      await database.transaction((transaction) =>
        eventLog.appendWithin(transaction, within, [message('a'), message('b')]),
      );
      await until(() => heard.includes(`${within}:6`));
      // Nothing is announced past what was appended.
      for (const payload of heard) {
        const [sessionId, seq] = payload.split(':');
        if (sessions.includes(sessionId!))
          expect(Number(seq)).toBeLessThanOrEqual(sessionId === within ? 6 : 4);
      }
      await unlisten();
    });
  },
);
