import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database.ts';
import { createProject } from '../projects/projects.ts';
import { createSession } from '../projects/sessions.ts';
import { testDatabaseEngines } from '../testing/test-databases.ts';
import { createEventLog, type EventLog } from './event-log.ts';

describe.each(testDatabaseEngines())('event log on $name', (engine) => {
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

  const message = (text: string) => ({ type: 'chat.message', actor: 'user', payload: { text } });

  it('starts a session at seq 1 with session.created and numbers appends consecutively', async () => {
    const sessionId = await newSession();
    const outcome = await eventLog.append(sessionId, [message('a'), message('b'), message('c')]);
    expect(outcome).toMatchObject({ success: true, lastSeq: 4 });
    const events = await eventLog.read(sessionId);
    expect(events.map((event) => [event.seq, event.type])).toEqual([
      [1, 'session.created'],
      [2, 'chat.message'],
      [3, 'chat.message'],
      [4, 'chat.message'],
    ]);
    expect(events[1]).toMatchObject({
      session_id: sessionId,
      actor: 'user',
      payload: { text: 'a' },
    });
    expect(Date.parse(events[1]!.created_at)).not.toBeNaN();
  });

  it('refuses a stale expected seq with a typed conflict and writes nothing', async () => {
    const sessionId = await newSession();
    await eventLog.append(sessionId, [message('first')], { expectedSeq: 1 });
    const outcome = await eventLog.append(sessionId, [message('late')], { expectedSeq: 1 });
    expect(outcome).toMatchObject({
      success: false,
      error: { kind: 'expected_seq_conflict', expectedSeq: 1, actualSeq: 2 },
    });
    expect((await eventLog.read(sessionId)).map((event) => event.seq)).toEqual([1, 2]);
  });

  it('stores a NUL and lone surrogates in text, keys and outbox rows as U+FFFD instead of failing the append', async () => {
    const sessionId = await newSession();
    const outcome = await eventLog.append(sessionId, [
      {
        type: 'tool.completed',
        actor: 'dev:x',
        payload: { result: 'ELF\u0000\u0000\uD800!', args: { 'k\u0000': ['\uDC00', 1] } },
        outbox: [{ aggregateType: 't', aggregateId: 'a', payload: { text: 'x\u0000' } }],
      },
    ]);
    expect(outcome).toMatchObject({ success: true, lastSeq: 2 });
    const stored = { result: 'ELF\uFFFD\uFFFD\uFFFD!', args: { 'k\uFFFD': ['\uFFFD', 1] } };
    // What the append hands back (the view the loop goes on with) is what the log holds.
    expect(outcome.success && outcome.events[0]!.payload).toEqual(stored);
    expect((await eventLog.read(sessionId))[1]!.payload).toEqual(stored);
    const outbox = await database.query<{ payload: unknown }>(
      "select payload from outbox where aggregate_type = 't' and aggregate_id = 'a'",
    );
    expect(outbox.rows.map((row) => row.payload)).toEqual([{ text: 'x\uFFFD' }]);
  });

  it('fails alone an append it cannot store at all, while those batched with it commit', async () => {
    const sessionId = await newSession();
    let deep: unknown = 'end';
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    const results = await Promise.allSettled([
      eventLog.append(sessionId, [message('first')]),
      eventLog.append(sessionId, [message('second')]),
      eventLog.append(sessionId, [{ type: 'x', actor: 'user', payload: { deep } }]),
      eventLog.append(sessionId, [message('third')]),
    ]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(
      (await eventLog.read(sessionId)).map((event) => (event.payload as { text?: string }).text),
    ).toEqual([undefined, 'first', 'second', 'third']);
  });

  it('answers session_not_found for an unknown session', async () => {
    const outcome = await eventLog.append('00000000-0000-4000-8000-000000000000', [message('x')]);
    expect(outcome).toMatchObject({ success: false, error: { kind: 'session_not_found' } });
  });

  it('lets exactly one of 50 appenders racing on the same expected seq win, round after round', async () => {
    const sessionId = await newSession();
    let expectedSeq = 1;
    for (let round = 0; round < 5; round += 1) {
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, appender) =>
          eventLog.append(sessionId, [message(`r${round}-a${appender}`)], { expectedSeq }),
        ),
      );
      const winners = outcomes.filter((outcome) => outcome.success);
      expect(winners).toHaveLength(1);
      expect(
        outcomes.filter(
          (outcome) => !outcome.success && outcome.error.kind === 'expected_seq_conflict',
        ),
      ).toHaveLength(49);
      expectedSeq += 1;
    }
    const seqs = (await eventLog.read(sessionId)).map((event) => event.seq);
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('gives 50 concurrent appenders without an expected seq gap-free, duplicate-free seqs', async () => {
    const sessionId = await newSession();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        eventLog.append(sessionId, [message(`m${index}`), message(`n${index}`)]),
      ),
    );
    expect(outcomes.every((outcome) => outcome.success)).toBe(true);
    const events = await eventLog.read(sessionId);
    expect(events.map((event) => event.seq)).toEqual(
      Array.from({ length: 101 }, (_, index) => index + 1),
    );
    // A batch stays contiguous: each appender's two events are neighbours.
    for (let index = 1; index < events.length; index += 2) {
      const first = (events[index]!.payload as { text: string }).text;
      const second = (events[index + 1]!.payload as { text: string }).text;
      expect(second).toBe(`n${first.slice(1)}`);
    }
  });

  it('reads after a seq with a limit', async () => {
    const sessionId = await newSession();
    await eventLog.append(
      sessionId,
      Array.from({ length: 10 }, (_, index) => message(String(index))),
    );
    const page = await eventLog.read(sessionId, { afterSeq: 3, limit: 4 });
    expect(page.map((event) => event.seq)).toEqual([4, 5, 6, 7]);
  });

  it('writes outbox rows in the same statement, and none when the append is refused', async () => {
    const sessionId = await newSession();
    const outbox = [
      { aggregateType: 'test_projection', aggregateId: sessionId, payload: { hello: 1 } },
    ];
    const accepted = await eventLog.append(sessionId, [{ ...message('x'), outbox }], {
      expectedSeq: 1,
    });
    const refused = await eventLog.append(sessionId, [{ ...message('y'), outbox }], {
      expectedSeq: 1,
    });
    expect(refused.success).toBe(false);
    const rows = await database.query<{ event_id: string; payload: unknown }>(
      'select event_id, payload from outbox where aggregate_id = $1',
      [sessionId],
    );
    expect(rows.rows).toEqual([
      { event_id: accepted.success ? accepted.events[0]!.id : 'none', payload: { hello: 1 } },
    ]);
  });

  it('derives outbox rows from outbox rules registered on the log', async () => {
    const sessionId = await newSession();
    const withRule = createEventLog(database, [
      (event, id) =>
        event.type === 'handoff.offered'
          ? [{ aggregateType: 'graph_projection', aggregateId: id }]
          : [],
    ]);
    await withRule.append(sessionId, [
      message('ignored'),
      { type: 'handoff.offered', actor: 'system', payload: {} },
    ]);
    const rows = await database.query('select aggregate_type from outbox where aggregate_id = $1', [
      sessionId,
    ]);
    expect(rows.rows).toEqual([{ aggregate_type: 'graph_projection' }]);
  });

  it("inside a caller's transaction, a refused append leaves the transaction usable", async () => {
    const sessionId = await newSession();
    const outcomes = await database.transaction(async (transaction) => {
      const unknown = await eventLog.appendWithin(
        transaction,
        '00000000-0000-4000-8000-000000000001',
        [message('lost')],
      );
      const stale = await eventLog.appendWithin(transaction, sessionId, [message('stale')], {
        expectedSeq: 0,
      });
      const accepted = await eventLog.appendWithin(transaction, sessionId, [message('kept')], {
        expectedSeq: 1,
      });
      return [unknown, stale, accepted];
    });
    expect(outcomes.map((outcome) => (outcome.success ? 'ok' : outcome.error.kind))).toEqual([
      'session_not_found',
      'expected_seq_conflict',
      'ok',
    ]);
    expect((await eventLog.read(sessionId)).map((event) => event.seq)).toEqual([1, 2]);
  });

  it('refuses to change or delete a stored event', async () => {
    const sessionId = await newSession();
    await expect(
      database.query("update session_events set type = 'x' where session_id = $1", [sessionId]),
    ).rejects.toThrow(/append-only/);
    await expect(
      database.query('delete from session_events where session_id = $1', [sessionId]),
    ).rejects.toThrow(/append-only/);
  });
});

/**
 * ADR 0263 on the server: an append that is this process's only one under way notifies in its own statement —
 * one statement, and the listeners hear it — while appends that overlap leave the NOTIFY to the notifier after
 * their commits (ADR 0180), and every session is still heard at its last seq.
 */
describe.each(testDatabaseEngines().filter((engine) => engine.name === 'postgres'))(
  'the NOTIFY of appends on $name',
  (engine) => {
    let database: Database;
    beforeAll(async () => {
      database = await engine.open();
    });
    afterAll(() => database.close());

    /** The log over the database, keeping every statement it sends and its parameters. */
    function recordingLog() {
      const statements: { sql: string; params: unknown[] | undefined }[] = [];
      const recording: Database = {
        ...database,
        query: (sql, params) => {
          statements.push({ sql, params });
          return database.query(sql, params);
        },
      };
      return { statements, eventLog: createEventLog(recording) };
    }

    /** What `forja_session_events` carries until `until` holds: the highest seq heard for each session. */
    async function hearing() {
      const heard = new Map<string, number>();
      const waiters: (() => void)[] = [];
      const unlisten = await database.listen('forja_session_events', (payload) => {
        const [sessionId, seq] = payload.split(':');
        heard.set(sessionId!, Math.max(Number(seq), heard.get(sessionId!) ?? 0));
        for (const wake of waiters.splice(0)) wake();
      });
      const until = async (done: () => boolean) => {
        while (!done()) await new Promise<void>((resolve) => waiters.push(resolve));
      };
      return { heard, until, unlisten };
    }

    async function newSession(): Promise<string> {
      const project = await createProject(database, { name: 'p' });
      return (await createSession(database, { projectId: project.id })).id;
    }
    const message = { type: 'chat.message', actor: 'user', payload: { text: 'hi' } };

    it('an append alone is one statement that notifies; the listeners hear its last seq', async () => {
      const sessionId = await newSession();
      const { statements, eventLog } = recordingLog();
      const listening = await hearing();
      const outcome = await eventLog.append(sessionId, [message, message]);
      expect(outcome).toMatchObject({ success: true, lastSeq: 3 });
      await listening.until(() => listening.heard.get(sessionId) === 3);
      await listening.unlisten();
      expect(statements).toHaveLength(1);
      expect(statements[0]!.sql).toContain('forja_append_event_batch');
      // The function's p_notify: it sends the NOTIFY inside its own transaction.
      expect(statements[0]!.params?.[2]).toBe(true);
    });

    it('appends that overlap leave the NOTIFY to after their commits, and every session is heard', async () => {
      const sessions = await Promise.all(Array.from({ length: 8 }, () => newSession()));
      const { statements, eventLog } = recordingLog();
      const listening = await hearing();
      await Promise.all(sessions.map((sessionId) => eventLog.append(sessionId, [message])));
      await listening.until(() =>
        sessions.every((sessionId) => listening.heard.get(sessionId) === 2),
      );
      await listening.unlisten();
      const appends = statements.filter((statement) =>
        statement.sql.includes('forja_append_event_batch'),
      );
      expect(appends).toHaveLength(8);
      // The first went alone; the seven asked while it was under way notify after their commits.
      expect(appends.map((statement) => statement.params?.[2])).toEqual([
        true,
        ...Array(7).fill(false),
      ]);
      expect(statements.some((statement) => statement.sql.includes('pg_notify'))).toBe(true);
    });
  },
);
