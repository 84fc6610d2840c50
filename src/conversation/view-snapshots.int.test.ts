import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  foldVersion,
  loadViewSnapshot,
  refreshSessionView,
  saveViewSnapshot,
  type SessionView,
} from '../agents/index.ts';
import { SESSION_EVENTS } from '../domain/conversation/index.ts';
import {
  createEventLog,
  createProject,
  createSession,
  type Database,
  type EventLog,
} from '../store/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { createSessionViews } from './session-views.ts';

/** The event log, counting the events its reads give and the seq each read starts after. */
function countingLog(eventLog: EventLog) {
  const counts = { events: 0, readsAfter: [] as number[] };
  const log: EventLog = {
    ...eventLog,
    read: async (sessionId, options) => {
      counts.readsAfter.push(options?.afterSeq ?? 0);
      const events = await eventLog.read(sessionId, options);
      counts.events += events.length;
      return events;
    },
  };
  return { log, counts };
}

/**
 * A process's session views over the database, with snapshots by `version` (ADR 0426); a new one is a
 * restarted process: it keeps no view.
 */
function processViews(database: Database, version = foldVersion(), now = () => 0) {
  const { log, counts } = countingLog(createEventLog(database));
  const views = createSessionViews(log, {
    now,
    snapshots: {
      load: (sessionId) => loadViewSnapshot(database, sessionId, version),
      save: (view) => saveViewSnapshot(database, view, version),
      afterEvents: 1_000,
      onError: (error) => {
        throw error;
      },
    },
  });
  return { views, counts };
}

const plain = (view: SessionView) => ({ state: view.state, events: view.events });

describe.each(testDatabaseEngines())('session view snapshots on $name', (engine) => {
  let database: Database;
  let eventLog: EventLog;
  let sessionId: string;
  /** The session's view folded from the whole log, with no snapshot. */
  const folded = async () => plain(await refreshSessionView(eventLog, sessionId));
  const snapshotRows = async () =>
    (
      await database.query<{ last_seq: number; fold_version: string }>(
        'select last_seq, fold_version from session_view_snapshots where session_id = $1',
        [sessionId],
      )
    ).rows;
  const chat = (count: number) =>
    Array.from({ length: count }, (_, index) =>
      index % 2 === 0
        ? SESSION_EVENTS.chatMessage.create('user', { v: 1, text: `pergunta ${index}` })
        : SESSION_EVENTS.agentResponse.create('criativo', {
            v: 1,
            agent: 'criativo',
            text: `resposta ${index}`,
          }),
    );

  beforeAll(async () => {
    database = await engine.open();
    eventLog = createEventLog(database);
    const project = await createProject(database, { name: 'snapshots' });
    sessionId = (await createSession(database, { projectId: project.id })).id;
    await eventLog.append(sessionId, [
      SESSION_EVENTS.agentActivated.create('user', { v: 1, agent: 'criativo', handoff_id: null }),
      ...chat(1_498),
    ]);
  });
  afterAll(() => database.close());

  it('a restarted process reads the snapshot and only the events after it, to the same view', async () => {
    const first = processViews(database);
    await first.views.load(sessionId);
    expect(first.counts.events).toBe(1_500);
    await first.views.saveSnapshots();
    expect(await snapshotRows()).toEqual([{ last_seq: 1_500, fold_version: foldVersion() }]);
    await eventLog.append(sessionId, chat(10));

    const restarted = processViews(database);
    const view = await restarted.views.load(sessionId);
    expect(restarted.counts).toEqual({ events: 10, readsAfter: [1_500] });
    expect(plain(view)).toStrictEqual(await folded());
    // Nothing more to snapshot: 10 events beyond the snapshot is not worth a copy of 1,510.
    await restarted.views.saveSnapshots();
    expect((await snapshotRows())[0]!.last_seq).toBe(1_500);
  });

  it('gives the same view with the snapshots deleted, folding the whole log', async () => {
    const withSnapshot = plain(await processViews(database).views.load(sessionId));
    await database.query('delete from session_view_snapshots');
    const restarted = processViews(database);
    const view = await restarted.views.load(sessionId);
    expect(restarted.counts.events).toBe(1_510);
    expect(plain(view)).toStrictEqual(withSnapshot);
    await restarted.views.saveSnapshots();
    expect((await snapshotRows())[0]!.last_seq).toBe(1_510);
  });

  it('ignores a snapshot of another version of the fold, folds the log, and replaces it', async () => {
    const changed = processViews(database, `${foldVersion()}-changed`);
    const view = await changed.views.load(sessionId);
    expect(changed.counts).toEqual({ events: 1_510, readsAfter: [0, 1_000] });
    expect(plain(view)).toStrictEqual(await folded());
    await changed.views.saveSnapshots();
    expect(await snapshotRows()).toEqual([
      { last_seq: 1_510, fold_version: `${foldVersion()}-changed` },
    ]);
    // And the older version, started again, does the same the other way.
    const older = processViews(database);
    await older.views.load(sessionId);
    expect(older.counts.events).toBe(1_510);
    await older.views.saveSnapshots();
    expect(await snapshotRows()).toEqual([{ last_seq: 1_510, fold_version: foldVersion() }]);
  });

  it('ignores and removes a snapshot that does not parse, or is not of its session and seq', async () => {
    const good = (await database.query<{ body: string }>('select body from session_view_snapshots'))
      .rows[0]!.body;
    for (const body of ['{"format":1,"state":', good.replace(/"seq":1,/, '"seq":2,'), '[]']) {
      await database.query('update session_view_snapshots set body = $1', [body]);
      const restarted = processViews(database);
      expect(plain(await restarted.views.load(sessionId))).toStrictEqual(await folded());
      expect(restarted.counts.events).toBe(1_510);
      expect(await snapshotRows()).toEqual([]);
      await restarted.views.saveSnapshots();
    }
  });

  it('snapshots a view once it is left unused, off the message path, and keeps the newest of two writers', async () => {
    await database.query('delete from session_view_snapshots');
    let clock = 0;
    const quiet = processViews(database, foldVersion(), () => clock);
    await quiet.views.load(sessionId);
    // Used a moment ago (a turn may be under way): not yet.
    expect(quiet.views.releaseIdle()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await snapshotRows()).toEqual([]);
    // Unused for a minute: written in the background, the view still kept.
    clock = 60_000;
    expect(quiet.views.releaseIdle()).toBe(0);
    await expect.poll(snapshotRows).toEqual([{ last_seq: 1_510, fold_version: foldVersion() }]);
    expect(quiet.views.size()).toBe(1);
    // An older view written later does not replace a newer snapshot.
    const behind = await refreshSessionView(
      {
        ...eventLog,
        read: async (id, options) =>
          (await eventLog.read(id, options)).filter((event) => event.seq <= 1_200),
      },
      sessionId,
    );
    await saveViewSnapshot(database, behind, foldVersion());
    expect((await snapshotRows())[0]!.last_seq).toBe(1_510);
  });
});
