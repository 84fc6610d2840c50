import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database.ts';
import { AppendFencedError } from '../event-log/append-events.ts';
import { createEventLog } from '../event-log/event-log.ts';
import { SESSION_EVENTS_CHANNEL } from '../event-log/event-notifications.ts';
import { createProject } from '../projects/projects.ts';
import { createSession } from '../projects/sessions.ts';
import { testDatabaseEngines } from '../testing/test-databases.ts';
import { fenceAppends } from './fenced-event-log.ts';
import { createInProcessLaneLeases } from './in-process-lane-leases.ts';
import { LaneHeldElsewhereError, LaneLeaseLostError, type LaneLeases } from './lane-leases.ts';
import { createPostgresLaneLeases } from './postgres-lane-leases.ts';

/** A process row, as `startProcessIdentity` writes it: a lease whose owner has none is free. */
async function liveProcess(database: Database): Promise<string> {
  const id = randomUUID();
  await database.query('insert into forja_processes (id, pid, host) values ($1, $2, $3)', [
    id,
    process.pid,
    'test',
  ]);
  return id;
}

/** Resolves when `condition` holds (polled; bounded by 30 s, never a duration asserted). */
async function until(condition: () => Promise<boolean>): Promise<void> {
  for (const end = Date.now() + 30_000; Date.now() < end; ) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the awaited condition never held');
}

/** A promise the test resolves: work that runs until the test lets it end. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const adapters: Array<{
  name: string;
  make: (database: Database, leaseMs?: number) => Promise<LaneLeases>;
}> = [
  { name: 'in-process', make: async () => createInProcessLaneLeases() },
  {
    name: 'postgres',
    make: async (database, leaseMs = 30_000) =>
      createPostgresLaneLeases(database, { owner: await liveProcess(database), leaseMs }),
  },
];

describe.each(testDatabaseEngines())('lane leases on $name', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(async () => {
    await database.close();
  });

  describe.each(adapters)('the $name adapter (contract)', (adapter) => {
    it('runs the work holding the lane, gives its lease to the work only, and releases it after', async () => {
      const leases = await adapter.make(database);
      const session = randomUUID();
      const seen = await leases.hold(session, 'criativo', async () => {
        await Promise.resolve();
        return leases.current(session);
      });
      expect(seen).toMatchObject({ sessionId: session, lane: 'criativo', owner: leases.owner });
      expect(leases.current(session)).toBeNull();
      expect(seen?.released).toBe(true);
      await leases.close();
    });

    it('refuses a second holder of a busy lane without running its work, while other lanes run side by side', async () => {
      const leases = await adapter.make(database);
      const session = randomUUID();
      const first = gate();
      const started = gate();
      const holding = leases.hold(session, 'dev:a', async () => {
        started.open();
        await first.opened;
        return 'first';
      });
      await started.opened;
      let ran = false;
      await expect(
        leases.hold(session, 'dev:a', async () => {
          ran = true;
        }),
      ).rejects.toBeInstanceOf(LaneHeldElsewhereError);
      expect(ran).toBe(false);
      expect(await leases.hold(session, 'dev:b', async () => 'other lane')).toBe('other lane');
      expect(await leases.hold(randomUUID(), 'dev:a', async () => 'other session')).toBe(
        'other session',
      );
      first.open();
      expect(await holding).toBe('first');
      expect(await leases.hold(session, 'dev:a', async () => 'again')).toBe('again');
      await leases.close();
    });

    it('gives every take of a lane a greater epoch, and releases the lane when the work throws', async () => {
      const leases = await adapter.make(database);
      const session = randomUUID();
      const epochs: number[] = [];
      for (let take = 0; take < 3; take++)
        await leases
          .hold(session, 'po', async () => {
            epochs.push(leases.current(session)!.epoch);
            if (take === 1) throw new Error('the work failed');
          })
          .catch((error: Error) => expect(error.message).toBe('the work failed'));
      expect(epochs).toHaveLength(3);
      expect(epochs[1]).toBeGreaterThan(epochs[0]!);
      expect(epochs[2]).toBeGreaterThan(epochs[1]!);
      await leases.close();
    });

    it('tells the holder, once it releases the lane, that work was wanted meanwhile; a free lane is free', async () => {
      const leases = await adapter.make(database);
      const session = randomUUID();
      expect(await leases.want(session, 'criativo')).toBe('free');
      const held = gate();
      const started = gate();
      let heard = 0;
      const holding = leases.hold(
        session,
        'criativo',
        async () => {
          started.open();
          await held.opened;
        },
        { onWanted: () => (heard += 1) },
      );
      await started.opened;
      expect(await leases.want(session, 'criativo')).toBe('held');
      expect(heard).toBe(0);
      held.open();
      await holding;
      expect(heard).toBe(1);
      expect(await leases.want(session, 'criativo')).toBe('free');
      await leases.hold(session, 'criativo', async () => {}, { onWanted: () => (heard += 1) });
      expect(heard, 'a new hold starts unwanted').toBe(1);
      await leases.close();
    });
  });

  describe('fenced appends (the postgres adapter): one append path, the fence inside it', () => {
    /** The database, recording the append statements (SQL and parameters) and the transactions opened. */
    function recording(inner: Database) {
      const appends: Array<{ sql: string; params: unknown[] }> = [];
      let transactions = 0;
      const database: Database = {
        ...inner,
        query: (sql, params) => {
          if (sql.includes('forja_append')) appends.push({ sql, params: params ?? [] });
          return inner.query(sql, params);
        },
        transaction: (work) => {
          transactions += 1;
          return inner.transaction(work);
        },
      };
      return { database, appends, transactions: () => transactions };
    }

    it('passes the fence while the lease is held; a stale lease appends nothing, alone or inside a transaction', async () => {
      const project = await createProject(database, { name: 'Padaria' });
      const { id: session } = await createSession(database, { projectId: project.id });
      const leases = createPostgresLaneLeases(database, {
        owner: await liveProcess(database),
        leaseMs: 30_000,
      });
      const eventLog = createEventLog(database);
      const log = fenceAppends(eventLog, leases);
      const step = (n: number) => [{ type: 'test.step', actor: 'arquiteto', payload: { n } }];
      const lease = await leases.hold(session, 'arquiteto', async () => {
        expect((await log.append(session, step(1))).success).toBe(true);
        return leases.current(session)!;
      });
      const stale = { lane: lease.lane, owner: lease.owner, epoch: lease.epoch };
      await expect(eventLog.append(session, step(2), { fence: stale })).rejects.toBeInstanceOf(
        AppendFencedError,
      );
      const within = await database
        .transaction(async (transaction) => {
          await transaction.query(`update sessions set title = 'changed' where id = $1`, [session]);
          await eventLog.appendWithin(transaction, session, step(3), { fence: stale });
        })
        .catch((error) => error);
      expect(within).toBeInstanceOf(AppendFencedError);
      const steps = await database.query<{ n: number }>(
        `select (payload->>'n')::int as n from session_events where session_id = $1 and type = 'test.step'`,
        [session],
      );
      expect(steps.rows).toEqual([{ n: 1 }]);
      const title = await database.query<{ title: string | null }>(
        'select title from sessions where id = $1',
        [session],
      );
      expect(title.rows[0]?.title).not.toBe('changed');
      await leases.close();
    });

    it('queues fenced appends to one session like any other: 30 at once are 2 statements, no transaction, each notifying in itself', async () => {
      const project = await createProject(database, { name: 'Padaria' });
      const { id: session } = await createSession(database, { projectId: project.id });
      const recorded = recording(database);
      const leases = createPostgresLaneLeases(database, {
        owner: await liveProcess(database),
        leaseMs: 30_000,
      });
      const log = fenceAppends(createEventLog(recorded.database), leases);
      const heard: string[] = [];
      const unlisten = await database.listen(SESSION_EVENTS_CHANNEL, (payload) =>
        heard.push(payload),
      );
      const outcomes = await leases.hold(session, 'dev:m', () =>
        Promise.all(
          Array.from({ length: 30 }, (_, n) =>
            log.append(session, [{ type: 'test.step', actor: 'dev:m', payload: { n } }]),
          ),
        ),
      );
      expect(outcomes.map((outcome) => outcome.success && outcome.lastSeq)).toEqual(
        Array.from({ length: 30 }, (_, index) => index + 2),
      );
      // The first alone, the 29 asked meanwhile in one batch (none retried, none in a transaction of its own),
      // every append carrying its fence ...
      expect(recorded.appends).toHaveLength(2);
      const entries = recorded.appends.flatMap(
        (call) => JSON.parse(call.params[1] as string) as Array<{ fence?: unknown }>,
      );
      expect(entries).toHaveLength(30);
      expect(entries.every((entry) => entry.fence !== undefined)).toBe(true);
      expect(recorded.transactions()).toBe(0);
      // ... and, the only appends of this process under way, each batch notifies in its own statement: no other
      // commit here waits on the lock a NOTIFY takes (ADR 0263; overlapping ones notify after, ADR 0180).
      expect(recorded.appends.map((call) => call.params[2])).toEqual([true, true]);
      await until(async () => heard.includes(`${session}:31`));
      await unlisten();
      await leases.close();
    });

    it('gives each append of a batch its own outcome: a lost fence and a stale expected seq fail alone, nothing of them written', async () => {
      const project = await createProject(database, { name: 'Padaria' });
      const { id: session } = await createSession(database, { projectId: project.id });
      const recorded = recording(database);
      const leases = createPostgresLaneLeases(database, {
        owner: await liveProcess(database),
        leaseMs: 30_000,
      });
      const eventLog = createEventLog(recorded.database);
      const log = fenceAppends(eventLog, leases);
      const step = (n: number) => ({
        type: 'test.step',
        actor: 'dev:m',
        payload: { n },
        outbox: [{ aggregateType: 'test_batch', aggregateId: session, payload: { n } }],
      });
      const lost = await leases.hold(session, 'dev:a', async () => leases.current(session)!);
      const stale = { lane: lost.lane, owner: lost.owner, epoch: lost.epoch };
      const outcomes = await leases.hold(session, 'dev:b', () =>
        Promise.allSettled([
          log.append(session, [step(1)]),
          log.append(session, [step(2)]),
          eventLog.append(session, [step(3)], { fence: stale }),
          log.append(session, [step(4)], { expectedSeq: 1 }),
          eventLog.append(session, [step(5)]),
          log.append(session, [step(6), step(7)], { expectedSeq: 4 }),
        ]),
      );
      expect(recorded.appends).toHaveLength(2);
      const [one, two, fenced, conflict, plain, current] = outcomes;
      expect(one).toMatchObject({ status: 'fulfilled', value: { success: true, lastSeq: 2 } });
      expect(two).toMatchObject({ status: 'fulfilled', value: { success: true, lastSeq: 3 } });
      expect(fenced.status === 'rejected' && fenced.reason).toBeInstanceOf(AppendFencedError);
      expect(conflict).toMatchObject({
        status: 'fulfilled',
        value: { success: false, error: { kind: 'expected_seq_conflict', actualSeq: 3 } },
      });
      expect(plain).toMatchObject({ status: 'fulfilled', value: { success: true, lastSeq: 4 } });
      expect(current).toMatchObject({ status: 'fulfilled', value: { success: true, lastSeq: 6 } });
      const steps = await database.query<{ seq: number; n: number }>(
        `select seq, (payload->>'n')::int as n from session_events where session_id = $1 and type = 'test.step' order by seq`,
        [session],
      );
      expect(steps.rows).toEqual([
        { seq: 2, n: 1 },
        { seq: 3, n: 2 },
        { seq: 4, n: 5 },
        { seq: 5, n: 6 },
        { seq: 6, n: 7 },
      ]);
      const outbox = await database.query<{ n: number }>(
        `select (payload->>'n')::int as n from outbox where aggregate_id = $1 order by id`,
        [session],
      );
      expect(outbox.rows.map((row) => row.n)).toEqual([1, 2, 5, 6, 7]);
      await leases.close();
    });
  });

  describe('across processes (the postgres adapter)', () => {
    it('lets one process hold a lane at a time, the other taking it with a greater epoch once released', async () => {
      const a = createPostgresLaneLeases(database, {
        owner: await liveProcess(database),
        leaseMs: 30_000,
      });
      const b = createPostgresLaneLeases(database, {
        owner: await liveProcess(database),
        leaseMs: 30_000,
      });
      const session = randomUUID();
      const held = gate();
      const started = gate();
      const holding = a.hold(session, 'criativo', async () => {
        started.open();
        await held.opened;
        return a.current(session)!.epoch;
      });
      await started.opened;
      const refused = await b.hold(session, 'criativo', async () => 'ran').catch((error) => error);
      expect(refused).toBeInstanceOf(LaneHeldElsewhereError);
      expect((refused as LaneHeldElsewhereError).holder).toBe(a.owner);
      held.open();
      const epochOfA = await holding;
      expect(await b.hold(session, 'criativo', async () => b.current(session)!.epoch)).toBe(
        epochOfA + 1,
      );
      await Promise.all([a.close(), b.close()]);
    });

    it('frees the lane of a process that stopped renewing once its lease runs out, for another to take over', async () => {
      const dead = await liveProcess(database);
      const session = randomUUID();
      // The dead process took the lane for 1 s and never renewed it (what a kill -9 leaves behind).
      await database.query('select forja_take_lane($1, $2, $3, 1)', [session, 'dev:m', dead]);
      const b = createPostgresLaneLeases(database, {
        owner: await liveProcess(database),
        leaseMs: 30_000,
      });
      await until(async () =>
        (await b.orphaned()).some((lane) => lane.sessionId === session && lane.lane === 'dev:m'),
      );
      expect(await b.hold(session, 'dev:m', async () => b.current(session)!.epoch)).toBe(2);
      expect(
        (await b.orphaned()).some((lane) => lane.sessionId === session),
        'a released lane is nobody to take over',
      ).toBe(false);
      await b.close();
    });

    it('renews a running lane, so it stays held past its lease length', async () => {
      const a = createPostgresLaneLeases(database, {
        owner: await liveProcess(database),
        leaseMs: 1_500,
      });
      const b = createPostgresLaneLeases(database, {
        owner: await liveProcess(database),
        leaseMs: 1_500,
      });
      const session = randomUUID();
      const expiry = async () =>
        (
          await database.query<{ expires_at: Date }>(
            'select expires_at from forja_lane_leases where session_id = $1',
            [session],
          )
        ).rows[0]?.expires_at.getTime() ?? 0;
      const held = gate();
      const started = gate();
      const holding = a.hold(session, 'ux', async () => {
        started.open();
        await held.opened;
      });
      await started.opened;
      const first = await expiry();
      // Two renewals later the lease reaches past the first expiry: the first lease length has gone by.
      await until(async () => (await expiry()) > first + 1_000);
      expect(await b.hold(session, 'ux', async () => 'ran').catch((error) => error)).toBeInstanceOf(
        LaneHeldElsewhereError,
      );
      held.open();
      await holding;
      await Promise.all([a.close(), b.close()]);
    });

    it('fences appends: a process whose lane was taken over cannot append to it, and nothing is written', async () => {
      const project = await createProject(database, { name: 'Padaria' });
      const { id: session } = await createSession(database, { projectId: project.id });
      const ownerOfA = await liveProcess(database);
      const a = createPostgresLaneLeases(database, { owner: ownerOfA, leaseMs: 30_000 });
      const b = createPostgresLaneLeases(database, {
        owner: await liveProcess(database),
        leaseMs: 30_000,
      });
      const logOfA = fenceAppends(createEventLog(database), a);
      const takenOver = gate();
      const appended = gate();
      const holding = a.hold(session, 'criativo', async () => {
        const first = await logOfA.append(session, [
          { type: 'test.step', actor: 'criativo', payload: { n: 1 } },
        ]);
        expect(first.success).toBe(true);
        appended.open();
        await takenOver.opened;
        return logOfA
          .append(session, [{ type: 'test.step', actor: 'criativo', payload: { n: 2 } }])
          .catch((error) => error);
      });
      await appended.opened;
      // The heartbeat sweep found A dead (its process row is gone): its lease is free although not expired.
      await database.query('delete from forja_processes where id = $1', [ownerOfA]);
      const takeover = b.hold(session, 'criativo', async () => {
        takenOver.open();
        return holding;
      });
      expect(await takeover).toBeInstanceOf(LaneLeaseLostError);
      const steps = await database.query<{ n: number }>(
        `select (payload->>'n')::int as n from session_events where session_id = $1 and type = 'test.step'`,
        [session],
      );
      expect(steps.rows).toEqual([{ n: 1 }]);
      await Promise.all([a.close(), b.close()]);
    });
  });
});
