import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database.ts';
import { createProject } from '../projects/projects.ts';
import { createSession } from '../projects/sessions.ts';
import { testDatabaseEngines } from '../testing/test-databases.ts';
import { createEventLog, type EventLog } from './event-log.ts';
import { deliveringAppends } from './delivering-appends.ts';
import { createEventNotifications, type EventNotifications } from './event-notifications.ts';
import type { SessionEvent } from './session-event.ts';

/** Waits for a condition without a deadline of its own: the test's timeout is the only limit. */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The same database, counting the reads of session events that go through it. */
function countingReads(database: Database): { database: Database; reads: () => number } {
  let reads = 0;
  return {
    database: {
      ...database,
      query: (sql, params) => {
        if (sql.includes('from session_events where session_id')) reads += 1;
        return database.query(sql, params);
      },
    },
    reads: () => reads,
  };
}

const message = (text: string) => ({ type: 'chat.message', actor: 'user', payload: { text } });

describe.each(testDatabaseEngines())('event notifications on $name', (engine) => {
  let database: Database;
  let eventLog: EventLog;

  beforeAll(async () => {
    database = await engine.open();
    eventLog = createEventLog(database);
  });
  afterAll(() => database.close());

  async function newSession(): Promise<string> {
    const project = await createProject(database, { name: 'p' });
    return (await createSession(database, { projectId: project.id })).id;
  }

  it.each([1, 10, 50])(
    'reads the log once per append, whatever the number of subscribers (%i)',
    async (subscribers) => {
      const counted = countingReads(database);
      const notifications = await createEventNotifications(counted.database);
      const sessionId = await newSession();
      const received: SessionEvent[][] = Array.from({ length: subscribers }, () => []);
      const unsubscribes = received.map((events) =>
        notifications.subscribe(sessionId, 1, (batch) => events.push(...batch)),
      );
      // The subscriptions' first read (events committed before they joined) is one read for all of them.
      await until(() => counted.reads() === 1);

      const appends = 5;
      for (let index = 0; index < appends; index += 1) {
        await eventLog.append(sessionId, [message(`m${index}`)]);
        await until(() => received.every((events) => events.length === index + 1));
      }
      expect(received.map((events) => events.map((event) => event.seq))).toEqual(
        received.map(() => [2, 3, 4, 5, 6]),
      );
      expect(counted.reads()).toBe(1 + appends);
      for (const unsubscribe of unsubscribes) unsubscribe();
      await notifications.close();
    },
  );

  it("hands this process's own appends to its streams without a read; another process's append is read, once", async () => {
    const counted = countingReads(database);
    const notifications = await createEventNotifications(counted.database);
    const ownLog = deliveringAppends(eventLog, notifications);
    // Another process: the same log, whose appends this process only hears of by NOTIFY.
    const otherLog = createEventLog(database);
    const sessionId = await newSession();
    const received: number[] = [];
    const unsubscribe = notifications.subscribe(sessionId, 1, (events) =>
      received.push(...events.map((event) => event.seq)),
    );
    try {
      await otherLog.append(sessionId, [message('other first')]);
      // Read and delivered: the feed is past every notification sent so far, and no read is in flight.
      await until(() => received.length === 1);
      const readsBefore = counted.reads();
      for (let index = 0; index < 3; index += 1) {
        await ownLog.append(sessionId, [message(`own ${index}`)]);
        // Delivered when the append returns, before its notification is heard.
        expect(received).toHaveLength(index + 2);
      }
      await otherLog.append(sessionId, [message('other')]);
      await until(() => received.length === 5);
      await ownLog.append(sessionId, [message('own again')]);
      expect(received).toHaveLength(6);
      await otherLog.append(sessionId, [message('other again')]);
      await until(() => received.length === 7);
      // Notifications arrive in order: by now each own append's was heard, and none of them read the log.
      expect(received).toEqual([2, 3, 4, 5, 6, 7, 8]);
      expect(counted.reads() - readsBefore).toBe(2);
    } finally {
      unsubscribe();
      await notifications.close();
    }
  });

  it('tells of each of its own appends as it commits (the memory workers wake on it), not of a refused one', async () => {
    const notifications = await createEventNotifications(database);
    let committed = 0;
    const ownLog = deliveringAppends(eventLog, notifications, () => {
      committed += 1;
    });
    const sessionId = await newSession();
    try {
      await ownLog.append(sessionId, [message('first')]);
      expect(committed).toBe(1);
      const refused = await ownLog.append(sessionId, [message('stale')], { expectedSeq: 1 });
      expect(refused.success).toBe(false);
      expect(committed).toBe(1);
      await ownLog.append(sessionId, [message('second')]);
      expect(committed).toBe(2);
    } finally {
      await notifications.close();
    }
  });

  it('catches a late subscriber up from its own resume point, then feeds it with the others, each event once', async () => {
    const counted = countingReads(database);
    const notifications = await createEventNotifications(counted.database);
    const sessionId = await newSession();
    const early: number[] = [];
    const late: number[] = [];
    notifications.subscribe(sessionId, 1, (events) =>
      early.push(...events.map((event) => event.seq)),
    );
    await eventLog.append(sessionId, [message('a'), message('b')]);
    await until(() => early.length === 2);
    notifications.subscribe(sessionId, 0, (events) =>
      late.push(...events.map((event) => event.seq)),
    );
    await until(() => late.length === 3);
    await eventLog.append(sessionId, [message('c')]);
    await until(() => early.length === 3 && late.length === 4);
    expect(early).toEqual([2, 3, 4]);
    expect(late).toEqual([1, 2, 3, 4]);
    await notifications.close();
  });
});

describe.each(testDatabaseEngines().filter((engine) => engine.name === 'postgres'))(
  'event notifications on $name when the listening connection dies',
  (engine) => {
    let database: Database;
    let eventLog: EventLog;
    let notifications: EventNotifications;
    const log: string[] = [];

    beforeAll(async () => {
      database = await engine.open();
      eventLog = createEventLog(database);
      notifications = await createEventNotifications(database, {
        lost: () => log.push('lost'),
        restored: () => log.push('restored'),
      });
    });
    afterAll(async () => {
      await notifications.close();
      await database.close();
    });

    const terminateListeners = async () =>
      (
        await database.query<{ pid: number }>(
          `select pg_terminate_backend(pid) as pid from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and query like 'listen %'`,
        )
      ).rows.length;

    it('reconnects, listens again, and catches up from the log with what was appended meanwhile', async () => {
      const project = await createProject(database, { name: 'p' });
      const sessionId = (await createSession(database, { projectId: project.id })).id;
      const seqs: number[] = [];
      notifications.subscribe(sessionId, 1, (events) =>
        seqs.push(...events.map((event) => event.seq)),
      );
      await eventLog.append(sessionId, [message('before')]);
      await until(() => seqs.length === 1);

      for (let round = 1; round <= 2; round += 1) {
        expect(await terminateListeners()).toBe(1);
        await until(() => log.filter((entry) => entry === 'lost').length === round);
        // Appended while nobody listens (the next try is 100 ms away): its notification is lost; the
        // reconnection reads it from the log.
        await eventLog.append(sessionId, [message(`while away ${round}`)]);
        await until(() => log.filter((entry) => entry === 'restored').length === round);
        await until(() => seqs.length === 1 + round * 2 - 1);
        await eventLog.append(sessionId, [message(`after ${round}`)]);
        await until(() => seqs.length === 1 + round * 2);
      }
      expect(seqs).toEqual([2, 3, 4, 5, 6]);
      expect(log.slice(0, 2)).toEqual(['lost', 'restored']);
    });
  },
);
