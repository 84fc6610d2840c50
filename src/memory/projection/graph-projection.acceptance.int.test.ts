import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDOFF_EVENT_PREFIX } from '../../domain/conversation/event-types.ts';
import {
  createEventLog,
  createProject,
  createSession,
  type Database,
  type EventLog,
} from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { createInMemoryGraphStore } from '../graph/in-memory-graph-store.ts';
import { GraphUnavailableError } from '../graph/graph-unavailable-error.ts';
import { createPostgresGraphStore } from '../graph/postgres-graph-store.ts';
import { faultyGraphStore } from '../testing/faulty-graph-store.ts';
import {
  memoryHistoryArbitrary,
  withIdPrefix,
  type HistoryEvent,
} from '../testing/memory-history.ts';
import { graphProjectionRule, GRAPH_PROJECTION_AGGREGATE } from './graph-projection-rule.ts';
import { createGraphProjector } from './graph-projector.ts';
import { SEEDED_LABELS } from './graph-vocabulary.ts';
import { loadProjectedEventsPage } from './load-projected-events.ts';
import { GRAPH_PROJECTED_TYPES, projectEvent } from './project-event.ts';
import { rebuildGraph } from './rebuild-graph.ts';

/** What can go wrong in one projector cycle. */
type Fault =
  | { kind: 'none' }
  | { kind: 'unavailable'; at: number }
  | { kind: 'killed'; at: number }
  | { kind: 'stopped'; at: number }
  | { kind: 'redelivered'; rows: number }
  | { kind: 'concurrent' };

const faultArbitrary: fc.Arbitrary<{ fault: Fault; batchSize: number; appendBefore: number }> =
  fc.record({
    fault: fc.oneof(
      fc.constant<Fault>({ kind: 'none' }),
      fc.record({ kind: fc.constant('unavailable' as const), at: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ kind: fc.constant('killed' as const), at: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ kind: fc.constant('stopped' as const), at: fc.integer({ min: 1, max: 40 }) }),
      fc.record({
        kind: fc.constant('redelivered' as const),
        rows: fc.integer({ min: 1, max: 5 }),
      }),
      fc.constant<Fault>({ kind: 'concurrent' }),
    ),
    batchSize: fc.integer({ min: 1, max: 7 }),
    appendBefore: fc.integer({ min: 0, max: 8 }),
  });

/** An example run in which every kind of fault strikes: eight events, and faults at the first write of a batch. */
const EVERY_FAULT_HISTORY: HistoryEvent[] = [
  {
    session: 0,
    type: 'chat.message',
    actor: 'user',
    payload: { v: 1, text: 'Trabalho melhor à noite' },
  },
  {
    session: 0,
    type: 'handoff.offered',
    actor: 'system',
    payload: {
      v: 1,
      handoff_id: 'handoff-1',
      from_agent: 'criativo',
      to_agent: 'po',
      artifact_id: null,
      status: 'offered',
    },
  },
  {
    session: 1,
    type: 'agent.response',
    actor: 'criativo',
    payload: { v: 1, agent: 'criativo', text: 'Entendi' },
  },
  {
    session: 0,
    type: 'handoff.accepted',
    actor: 'user',
    payload: {
      v: 1,
      handoff_id: 'handoff-1',
      from_agent: 'criativo',
      to_agent: 'po',
      artifact_id: null,
      status: 'accepted',
    },
  },
  {
    session: 0,
    type: 'hypothesis.proposed',
    actor: 'psicologo',
    payload: {
      v: 1,
      hypothesis_id: 'hypothesis-1',
      statement: 'Prefere a noite',
      evidence: [2],
      trigger: { kind: 'session.ended', reason: 'completed' },
      rag: { degraded: false },
    },
  },
  {
    session: 0,
    type: 'hypothesis.accepted',
    actor: 'user',
    payload: { v: 1, hypothesis_id: 'hypothesis-1' },
  },
  {
    session: 2,
    type: 'anamnese.profile_recorded',
    actor: 'anamnese',
    payload: {
      v: 1,
      profile_id: 'profile-1',
      competency: 'SQL',
      level: 'avancado',
      summary: 'Consultas com janelas',
      evidence: [1],
    },
  },
  { session: 1, type: 'chat.message', actor: 'user', payload: { v: 1, text: 'Vamos revisar' } },
];
const EVERY_FAULT: Array<{ fault: Fault; batchSize: number; appendBefore: number }> = [
  { fault: { kind: 'unavailable', at: 1 }, batchSize: 3, appendBefore: 3 },
  { fault: { kind: 'killed', at: 2 }, batchSize: 3, appendBefore: 2 },
  { fault: { kind: 'none' }, batchSize: 2, appendBefore: 0 },
  { fault: { kind: 'stopped', at: 1 }, batchSize: 5, appendBefore: 3 },
  { fault: { kind: 'redelivered', rows: 2 }, batchSize: 7, appendBefore: 0 },
  { fault: { kind: 'concurrent' }, batchSize: 2, appendBefore: 0 },
];

/** The process died before the drain committed: everything the batch did is rolled back. */
class ProcessKilled extends Error {
  override readonly name = 'ProcessKilled';
}

const silent = pino({ level: 'silent' });

describe.each(testDatabaseEngines())('graph projection acceptance on $name', (engine) => {
  let database: Database;
  let eventLog: EventLog;
  beforeAll(async () => {
    database = await engine.open();
    eventLog = createEventLog(database, [graphProjectionRule]);
  });
  afterAll(() => database.close());

  const pendingRows = async () =>
    (
      await database.query<{ count: number }>(
        'select count(*) as count from outbox where aggregate_type = $1 and processed_at is null',
        [GRAPH_PROJECTION_AGGREGATE],
      )
    ).rows[0]!.count;

  /** How many injected faults really struck, so the test proves it exercised each kind. */
  const struck = { unavailable: 0, killed: 0, stopped: 0, redelivered: 0 };

  /** One projector cycle with the fault injected. */
  async function cycle(fault: Fault, batchSize: number): Promise<void> {
    if (fault.kind === 'redelivered') {
      // At-least-once delivery: rows already projected come again.
      const again = await database.query(
        `update outbox set processed_at = null where id in (select id from outbox where aggregate_type = $1 and processed_at is not null order by random() limit $2) returning id`,
        [GRAPH_PROJECTION_AGGREGATE, fault.rows],
      );
      struck.redelivered += again.rows.length;
    }
    let killed = false;
    const target: Database =
      fault.kind === 'killed'
        ? {
            ...database,
            transaction: (work) =>
              database.transaction(async (transaction) => {
                const result = await work(transaction);
                if (killed) throw new ProcessKilled('killed before commit');
                return result;
              }),
          }
        : database;
    const projector = createGraphProjector({
      database: target,
      batchSize,
      logger: silent,
      graphFor: (transaction) =>
        faultyGraphStore(createPostgresGraphStore(transaction), (write) => {
          if (fault.kind === 'unavailable' && write === fault.at) {
            struck.unavailable += 1;
            throw new GraphUnavailableError('injected: the graph went away');
          }
          if (fault.kind === 'killed' && write === fault.at) {
            struck.killed += 1;
            killed = true;
            throw new ProcessKilled('killed mid-batch');
          }
          if (fault.kind === 'stopped' && write === fault.at) {
            struck.stopped += 1;
            void projector.stop();
          }
        }),
    });
    if (fault.kind === 'concurrent') {
      const other = createGraphProjector({
        database,
        batchSize,
        logger: silent,
        graphFor: createPostgresGraphStore,
      });
      await Promise.all([projector.runCycle(), other.runCycle()]);
      return;
    }
    await projector.runCycle().catch((error: unknown) => {
      if (!(error instanceof ProcessKilled)) throw error;
    });
  }

  async function appendHistory(sessions: readonly string[], events: readonly HistoryEvent[]) {
    for (const event of events) {
      const outcome = await eventLog.append(sessions[event.session]!, [
        { type: event.type, actor: event.actor, payload: event.payload },
      ]);
      if (!outcome.success) throw new Error(outcome.error.message);
    }
  }

  it('the live projection with faults and the rebuild into an empty graph give the same graph, with no duplicate effect', async () => {
    await fc.assert(
      fc.asyncProperty(
        memoryHistoryArbitrary(3, 30),
        fc.array(faultArbitrary, { minLength: 1, maxLength: 14 }),
        async (generated, faults) => {
          // Runs share one database: each starts from the graph the previous run left (equal to its rebuild)
          // and adds a project of its own; a redelivered row may be one of an earlier run.
          const project = await createProject(database, { name: 'acceptance' });
          const sessions = await Promise.all(
            [0, 1, 2].map(
              async () => (await createSession(database, { projectId: project.id })).id,
            ),
          );
          const history = withIdPrefix(generated, project.id);

          // (a) Live: events are appended between faulty cycles, then the queue is drained (faults keep coming).
          let appended = 0;
          for (const { fault, batchSize, appendBefore } of faults) {
            await appendHistory(sessions, history.slice(appended, appended + appendBefore));
            appended = Math.min(history.length, appended + appendBefore);
            await cycle(fault, batchSize);
          }
          await appendHistory(sessions, history.slice(appended));
          for (let round = 0; (await pendingRows()) > 0; round += 1) {
            const { fault, batchSize } = faults[round % faults.length]!;
            await cycle(round < faults.length ? fault : { kind: 'none' }, batchSize);
          }
          const live = await createPostgresGraphStore(database).snapshot({
            excludeLabels: SEEDED_LABELS,
          });

          // Every stored event projected exactly once, in memory: the reference the live graph must equal.
          const reference = createInMemoryGraphStore();
          const stored = await loadProjectedEventsPage(
            database,
            { types: GRAPH_PROJECTED_TYPES, prefixes: [HANDOFF_EVENT_PREFIX] },
            null,
            10_000,
          );
          for (const event of stored) await projectEvent(reference, event);
          const expected = await reference.snapshot({ excludeLabels: SEEDED_LABELS });
          expect(live).toEqual(expected);

          // (b) `forja graph rebuild` into an empty graph.
          const rebuilt = await rebuildGraph(database, createPostgresGraphStore);
          expect(rebuilt).toMatchObject({ ok: true, events: stored.length });
          expect(
            await createPostgresGraphStore(database).snapshot({ excludeLabels: SEEDED_LABELS }),
          ).toEqual(live);

          // No duplicate effect: one node per handoff, hypothesis and recorded profile of the history.
          const distinct = (type: string, field: string) =>
            new Set(
              history
                .filter((event) => event.type.startsWith(type))
                .map((event) => event.payload[field]),
            ).size;
          const count = (label: string) =>
            live.nodes.filter(
              (node) => node.label === label && node.properties.project_id === project.id,
            ).length;
          expect(count('Handoff')).toBe(distinct('handoff.', 'handoff_id'));
          expect(count('Hypothesis')).toBe(distinct('hypothesis.proposed', 'hypothesis_id'));
          expect(count('ProfileRecord')).toBe(distinct('anamnese.profile_recorded', 'profile_id'));
        },
      ),
      {
        numRuns: engine.name === 'pglite' ? 12 : 20,
        examples: [[EVERY_FAULT_HISTORY, EVERY_FAULT]],
      },
    );
    expect(Object.values(struck).every((count) => count > 0)).toBe(true);
  }, 240_000);

  it('a GraphUnavailableError stops the whole cycle: the row stays untouched and the rest is not attempted', async () => {
    await database.query(
      'update outbox set processed_at = now() where aggregate_type = $1 and processed_at is null',
      [GRAPH_PROJECTION_AGGREGATE],
    );
    const project = await createProject(database, { name: 'stop' });
    const session = (await createSession(database, { projectId: project.id })).id;
    for (const text of ['um', 'dois', 'três'])
      await eventLog.append(session, [
        { type: 'chat.message', actor: 'user', payload: { v: 1, text } },
      ]);
    const attempted: string[] = [];
    const projector = createGraphProjector({
      database,
      logger: silent,
      graphFor: (transaction) => {
        const graph = createPostgresGraphStore(transaction);
        return {
          ...graph,
          upsertNode: async (node) => {
            attempted.push(node.key);
            if (node.key.endsWith('#3')) throw new GraphUnavailableError('down');
            await graph.upsertNode(node);
          },
        };
      },
    });
    const report = await projector.runCycle();
    expect(report).toEqual({
      processed: 1,
      failed: 0,
      stopped: { rowId: expect.any(Number), reason: 'down' },
    });
    expect(attempted.filter((key) => key.includes('#'))).toEqual([`${session}#2`, `${session}#3`]);
    const rows = await database.query<{ attempts: number; last_error: string | null }>(
      'select attempts, last_error from outbox where aggregate_type = $1 and processed_at is null order by id',
      [GRAPH_PROJECTION_AGGREGATE],
    );
    expect(rows.rows).toEqual([
      { attempts: 0, last_error: null },
      { attempts: 0, last_error: null },
    ]);
    expect(
      await createGraphProjector({
        database,
        logger: silent,
        graphFor: createPostgresGraphStore,
      }).runCycle(),
    ).toMatchObject({ processed: 2, stopped: null });
  });
});
