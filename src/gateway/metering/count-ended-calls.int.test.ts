import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, type Database } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { countEndedCalls } from './count-ended-calls.ts';
import { setProjectBudget } from './project-budget.ts';
import { reserveCall } from './reserve-call.ts';
import { abandonedReservationError, expireStaleReservations, settleCall } from './settle-call.ts';

describe.each(testDatabaseEngines())('countEndedCalls on $name', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(() => database.close());

  it('counts per model and agent the calls that ended, not those still open, abandoned or refused', async () => {
    const project = await createProject(database, { name: 'p' });
    const call = (agent: string, model = 'demo.json', provider = 'scripted') => ({
      projectId: project.id,
      sessionId: null,
      agent,
      provider,
      model,
    });
    const usage = { inputTokens: 1, outputTokens: 1, estimated: false };
    const ended = async (
      agent: string,
      outcome: 'completed' | 'error' | 'cancelled',
      model?: string,
      provider?: string,
    ) => {
      const reservation = await reserveCall(database, call(agent, model, provider), 10);
      await settleCall(database, reservation.usageId, {
        outcome,
        usage,
        latencyMs: 1,
        timeToFirstTokenMs: null,
      });
    };
    await ended('criativo', 'completed');
    await ended('criativo', 'error');
    await ended('criativo', 'cancelled');
    await ended('po', 'completed');
    await ended('criativo', 'completed', 'other.json');
    await ended('criativo', 'completed', 'gpt-4o', 'openai');
    await reserveCall(database, call('po'), 10); // still open: its process stopped during the call
    const abandoned = await reserveCall(database, call('po'), 10);
    await database.query(
      `update token_usage set created_at = now() - interval '1 hour' where id = $1`,
      [abandoned.usageId],
    );
    expect(await expireStaleReservations(database)).toBe(1);
    expect(
      (await database.query('select error from token_usage where id = $1', [abandoned.usageId]))
        .rows,
    ).toEqual([{ error: abandonedReservationError }]);
    await setProjectBudget(database, project.id, 0);
    expect((await reserveCall(database, call('po'), 10)).ok).toBe(false);

    expect(await countEndedCalls(database, 'scripted')).toEqual({
      'demo.json': { criativo: 3, po: 1 },
      'other.json': { criativo: 1 },
    });
  });
});
