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
        if (sql.includes('forja_append_')) calls += 1;
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

    it('queues the appends of one process to one session and commits those waiting together: 40 at once are 2 calls, none retried', async () => {
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
      // The first goes at once, alone; the 39 asked meanwhile go together when it is done.
      expect(counted.calls()).toBe(2);
      const events = await eventLog.read(sessionId);
      expect(events.slice(1).map((event) => (event.payload as { text: string }).text)).toEqual(
        Array.from({ length: 40 }, (_, index) => `m${index}`),
      );
    });

    it('gives each append of a batch its own outcome: a stale expected seq fails alone, the others commit gap-free with their outbox rows', async () => {
      const counted = countingAppendCalls(database);
      const eventLog = createEventLog(counted.database);
      const sessionId = await newSession();
      const outbox = (tag: string) => [
        { aggregateType: 'test_batch', aggregateId: sessionId, payload: { tag } },
      ];
      const [first, plain, stale, withOutbox, current, empty] = await Promise.all([
        eventLog.append(sessionId, [message('first')]),
        eventLog.append(sessionId, [message('plain'), message('plain-2')]),
        eventLog.append(sessionId, [{ ...message('stale'), outbox: outbox('stale') }], {
          expectedSeq: 1,
        }),
        eventLog.append(sessionId, [{ ...message('kept'), outbox: outbox('kept') }]),
        // The head at its turn: the earlier appends of the same batch count.
        eventLog.append(sessionId, [message('current')], { expectedSeq: 5 }),
        eventLog.append(sessionId, [], { expectedSeq: 6 }),
      ]);
      expect(counted.calls()).toBe(2);
      expect(first).toMatchObject({ success: true, lastSeq: 2 });
      expect(plain).toMatchObject({ success: true, lastSeq: 4 });
      expect(plain.success && plain.events.map((event) => event.seq)).toEqual([3, 4]);
      expect(stale).toMatchObject({
        success: false,
        error: { kind: 'expected_seq_conflict', expectedSeq: 1, actualSeq: 4 },
      });
      expect(withOutbox).toMatchObject({ success: true, lastSeq: 5 });
      expect(withOutbox.success && withOutbox.events.map((event) => event.seq)).toEqual([5]);
      expect(current).toMatchObject({ success: true, lastSeq: 6 });
      expect(empty).toEqual({ success: true, events: [], lastSeq: 6 });
      const events = await eventLog.read(sessionId);
      expect(events.map((event) => [event.seq, (event.payload as { text?: string }).text])).toEqual(
        [
          [1, undefined],
          [2, 'first'],
          [3, 'plain'],
          [4, 'plain-2'],
          [5, 'kept'],
          [6, 'current'],
        ],
      );
      const rows = await database.query<{ event_id: string; payload: unknown }>(
        'select event_id, payload from outbox where aggregate_id = $1',
        [sessionId],
      );
      expect(rows.rows).toEqual([
        {
          event_id: withOutbox.success ? withOutbox.events[0]!.id : 'none',
          payload: { tag: 'kept' },
        },
      ]);
    });

    it('fails only the append at fault when a batch fails for another reason, and answers session_not_found to a batch for no session', async () => {
      const eventLog = createEventLog(database);
      const sessionId = await newSession();
      const broken = { type: null as unknown as string, actor: 'user', payload: {} };
      const outcomes = await Promise.allSettled([
        eventLog.append(sessionId, [message('a')]),
        eventLog.append(sessionId, [message('b')]),
        eventLog.append(sessionId, [broken]),
        eventLog.append(sessionId, [message('c')]),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
      ]);
      expect((await eventLog.read(sessionId)).map((event) => event.seq)).toEqual([1, 2, 3, 4]);
      const nobody = '00000000-0000-4000-8000-000000000002';
      const refused = await Promise.all(
        [0, 1, 2].map(() => eventLog.append(nobody, [message('lost')])),
      );
      expect(refused.map((outcome) => !outcome.success && outcome.error.kind)).toEqual([
        'session_not_found',
        'session_not_found',
        'session_not_found',
      ]);
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
