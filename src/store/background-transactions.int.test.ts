import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.ts';
import { openPgliteWorkerDatabase } from './pglite-worker-database.ts';
import { testDatabaseEngines } from './testing/test-databases.ts';

/**
 * A statement still in flight when the background transaction asks to begin, and answered well under the 50 ms
 * cap of the wait even on a loaded machine (200,000 rows once took longer in CI, and the cap let the
 * background go first).
 */
const LONG_STATEMENT = 'select count(*)::integer as n from generate_series(1, 60000)';

/**
 * The engines `forja serve` opens that let derived work wait for a quiet moment: PGlite on its worker thread
 * (ADR 0245) and the PostgreSQL server (its addendum). In-process PGlite (tests, benchmarks of the plain engine)
 * does not: there a loop of statements resolves with no turn of the event loop, and a timer would never come.
 */
const engines = [
  { name: 'pglite (worker thread)', open: (): Promise<Database> => openPgliteWorkerDatabase() },
  ...testDatabaseEngines().filter((engine) => engine.name === 'postgres'),
];

describe.each(engines)('background transactions on $name', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(() => database.close());

  it('lets a statement asked for meanwhile be answered before a background transaction begins', async () => {
    const order: string[] = [];
    const background = database.transaction(
      async (transaction) => {
        order.push('background began');
        await transaction.query('select 1');
      },
      { background: true },
    );
    const foreground = database.query(LONG_STATEMENT).then(() => order.push('foreground answered'));
    await Promise.all([background, foreground]);
    expect(order).toEqual(['foreground answered', 'background began']);
  });

  it('still runs a background transaction while statements keep coming', async () => {
    let done = false;
    const busy = (async () => {
      while (!done) await database.query('select 1');
    })();
    const background = database
      .transaction(
        async (transaction) => (await transaction.query<{ n: number }>('select 7 as n')).rows[0]!.n,
        { background: true },
      )
      .finally(() => {
        done = true;
      });
    expect(await background).toBe(7);
    await busy;
  });
});
