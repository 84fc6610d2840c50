import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEventLog,
  createProject,
  createSession,
  type Database,
  type EventLog,
} from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { createModelGateway, reservedTokensFor } from '../create-model-gateway.ts';
import type { GatewayTurnRequest } from '../model-gateway.ts';
import {
  createScriptedProvider,
  type ModelProvider,
  type ScriptInput,
} from '../providers/index.ts';
import {
  callCostUsd,
  reservationCostUsd,
  type ModelPrice,
  type PriceTable,
} from './prices/price-table.ts';
import { startProcessIdentity } from './process-identity.ts';
import { setProjectBudget, setProjectMoneyBudget } from './project-budget.ts';
import { reserveCall } from './reserve-call.ts';
import { expireStaleReservations } from './settle-call.ts';
import { summariseUsage } from './usage-summary.ts';

const silent = pino({ level: 'silent' });
/** Claude Sonnet's list price: cache reads 0.1x, writes 1.25x the input rate. */
const price: ModelPrice = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 };
const prices: PriceTable = {
  source: 'test prices',
  models: new Map([['scripted:priced.json', price]]),
};

/** A scripted model under a priced name; counts the calls that reach it, to prove a refused turn never does. */
function pricedModel(script: ScriptInput, model = 'priced.json') {
  const provider = createScriptedProvider({ script, source: model });
  const counter = { calls: 0 };
  const wrapped: ModelProvider = {
    name: provider.name,
    model: provider.model,
    stream: (request, options) => (counter.calls++, provider.stream(request, options)),
  };
  return { provider: wrapped, counter };
}

describe.each(testDatabaseEngines())('a budget in money on $name', (engine) => {
  let database: Database;
  let eventLog: EventLog;
  beforeAll(async () => {
    database = await engine.open();
    eventLog = createEventLog(database);
  });
  afterAll(() => database.close());

  async function newScope() {
    const project = await createProject(database, { name: 'p' });
    const session = await createSession(database, { projectId: project.id });
    return { projectId: project.id, sessionId: session.id };
  }
  const turnFor = (scope: { projectId: string; sessionId: string }, agent = 'criativo') =>
    ({
      ...scope,
      agent,
      system: 'You are Criativo.',
      messages: [{ role: 'user', content: 'An idea' }],
      tools: [],
      maxOutputTokens: 100,
    }) satisfies GatewayTurnRequest;

  it('keeps 60 concurrent turns within the money budget plus one reservation, the provider counting 3x the estimate, and refuses only while it is true', async () => {
    const scope = await newScope();
    const request = turnFor(scope);
    const estimate = Math.ceil(
      Buffer.byteLength(request.system + JSON.stringify(request.messages)) / 4,
    );
    const turns = Array.from({ length: 61 }, (_, index) => ({
      agent: 'criativo',
      text: 'an answer',
      // Some calls write the cache (dearer than plain input), some read it.
      usage: {
        input_tokens: 3 * estimate,
        output_tokens: request.maxOutputTokens,
        ...(index % 2 === 0
          ? { cache_write_input_tokens: 3 * estimate }
          : { cached_input_tokens: estimate }),
      },
    }));
    const { provider, counter } = pricedModel({ turns });
    const gateway = createModelGateway({ database, eventLog, logger: silent, provider, prices });
    const reservedTokens = reservedTokensFor(request);
    const reservation = reservationCostUsd(
      price,
      reservedTokens - request.maxOutputTokens,
      request.maxOutputTokens,
    );
    const budget = 0.02;
    await setProjectMoneyBudget(database, scope.projectId, budget);
    const outcomes = await Promise.all(Array.from({ length: 60 }, () => gateway.runTurn(request)));
    const completed = outcomes.filter((outcome) => outcome.status === 'completed').length;
    expect(completed).toBeGreaterThan(0);
    expect(completed).toBeLessThan(60);
    const refusals = outcomes.filter((outcome) => outcome.status === 'budget_exceeded');
    expect(refusals).toHaveLength(60 - completed);
    expect(refusals[0]).toMatchObject({
      figures: { limit: 'usd', max_usd: budget },
      message: expect.stringMatching(/^The project's money budget \(US\$0\.02\) does not cover/),
    });
    expect(counter.calls).toBe(completed);
    const summary = await summariseUsage(database, { projectId: scope.projectId });
    expect(summary.total_cost_usd).toBeGreaterThan(0);
    expect(summary.total_cost_usd).toBeLessThanOrEqual(budget + reservation);
    expect(summary.reserved_usd).toBe(0);
    // Each call settled at its real price, cache reads and writes at theirs.
    const costs = await database.query<{
      cost: number;
      input: number;
      cached: number;
      written: number;
    }>(
      `select cost_usd::float8 as cost, input_tokens as input, cached_input_tokens as cached,
              cache_write_input_tokens as written
         from token_usage where project_id = $1 and outcome = 'completed'`,
      [scope.projectId],
    );
    for (const row of costs.rows)
      expect(row.cost).toBeCloseTo(
        callCostUsd(price, {
          inputTokens: row.input,
          outputTokens: request.maxOutputTokens,
          cachedInputTokens: row.cached,
          cacheWriteInputTokens: row.written,
        }),
        9,
      );
    // A refusal holds while it is true: with the budget raised, the same turn runs.
    await setProjectMoneyBudget(database, scope.projectId, summary.total_cost_usd + reservation);
    expect((await gateway.runTurn(request)).status).toBe('completed');
  });

  it('holds the token budget beside the money one: whichever refuses first says so', async () => {
    const scope = await newScope();
    const { provider } = pricedModel({ turns: [{ agent: 'criativo', text: 'never' }] });
    const gateway = createModelGateway({ database, eventLog, logger: silent, provider, prices });
    await setProjectMoneyBudget(database, scope.projectId, 100);
    await setProjectBudget(database, scope.projectId, 10);
    const outcome = await gateway.runTurn(turnFor(scope));
    expect(outcome).toMatchObject({
      status: 'budget_exceeded',
      figures: { limit: 'tokens', max_tokens: 10, max_usd: 100 },
      message: expect.stringMatching(/^The project's token budget \(10\)/),
    });
  });

  it('refuses a model with no known price under a money budget, naming it and FORJA_PRICES; counts it unpriced without one', async () => {
    const scope = await newScope();
    const script: ScriptInput = {
      turns: [{ agent: 'criativo', text: 'a', usage: { input_tokens: 10, output_tokens: 2 } }],
    };
    const { provider, counter } = pricedModel(script, 'unpriced.json');
    const gateway = createModelGateway({ database, eventLog, logger: silent, provider, prices });
    await setProjectMoneyBudget(database, scope.projectId, 5);
    expect(await gateway.preflight(turnFor(scope))).toMatchObject({
      ok: false,
      message: expect.stringContaining('no price is known for scripted:unpriced.json'),
    });
    const refused = await gateway.runTurn(turnFor(scope));
    expect(refused).toMatchObject({
      status: 'budget_exceeded',
      figures: { limit: 'price_unknown', requested_usd: null },
      message: expect.stringMatching(/no price is known for scripted:unpriced\.json.*FORJA_PRICES/),
    });
    expect(counter.calls).toBe(0);
    const events = await eventLog.read(scope.sessionId, { afterSeq: 1 });
    expect(events.at(-1)).toMatchObject({
      type: 'budget.exceeded',
      payload: { limit: 'price_unknown', max_usd: 5 },
    });

    await setProjectMoneyBudget(database, scope.projectId, null);
    expect((await gateway.runTurn(turnFor(scope))).status).toBe('completed');
    const summary = await summariseUsage(database, { projectId: scope.projectId });
    expect(summary).toMatchObject({ total_cost_usd: 0, unpriced_calls: 1, total_tokens: 12 });
  });

  it('shows each call’s cost, the cached share and each lane’s burn', async () => {
    const scope = await newScope();
    const script: ScriptInput = {
      turns: [
        {
          agent: 'criativo',
          text: 'a',
          usage: { input_tokens: 1000, output_tokens: 10, cache_write_input_tokens: 1000 },
        },
        {
          agent: 'criativo',
          text: 'b',
          usage: { input_tokens: 1100, output_tokens: 10, cached_input_tokens: 1000 },
        },
        { agent: 'po', text: 'c', usage: { input_tokens: 900, output_tokens: 30 } },
      ],
    };
    const { provider } = pricedModel(script);
    const gateway = createModelGateway({ database, eventLog, logger: silent, provider, prices });
    await gateway.runTurn(turnFor(scope));
    await gateway.runTurn(turnFor(scope));
    await gateway.runTurn(turnFor(scope, 'po'));
    const summary = await summariseUsage(database, { projectId: scope.projectId });
    const first = (1000 * 3.75 + 10 * 15) / 1e6;
    const second = (100 * 3 + 1000 * 0.3 + 10 * 15) / 1e6;
    const third = (900 * 3 + 30 * 15) / 1e6;
    expect(summary.total_cost_usd).toBeCloseTo(first + second + third, 9);
    expect(summary.cached_share).toBeCloseTo(1000 / 3000, 9);
    expect(summary.by_lane).toEqual([
      {
        lane: 'criativo',
        calls: 2,
        total_tokens: 2120,
        cached_input_tokens: 1000,
        cache_write_input_tokens: 1000,
        cost_usd: expect.closeTo(first + second, 9),
      },
      {
        lane: 'po',
        calls: 1,
        total_tokens: 930,
        cached_input_tokens: 0,
        cache_write_input_tokens: 0,
        cost_usd: expect.closeTo(third, 9),
      },
    ]);
  });

  it('counts the money a reservation held as spent when its process stopped during the call', async () => {
    const scope = await newScope();
    const call = { ...scope, agent: 'criativo', provider: 'scripted', model: 'priced.json' };
    const abandoned = await reserveCall(database, call, 1000, 100, 0.25);
    const interrupted = await reserveCall(database, call, 1000, 100, 0.5);
    const unpriced = await reserveCall(database, call, 1000, 100, null);
    expect((await summariseUsage(database, { projectId: scope.projectId })).reserved_usd).toBe(
      0.75,
    );
    await database.query(
      `update token_usage set created_at = now() - interval '1 hour' where id = $1`,
      [abandoned.usageId],
    );
    expect(await expireStaleReservations(database)).toBe(1);
    const identity = await startProcessIdentity(database, { heartbeatMs: 60_000 });
    await identity.settleLane(scope.sessionId, 'criativo');
    await identity.close();
    const rows = await database.query<{ id: string; cost: number | null }>(
      'select id, cost_usd::float8 as cost from token_usage where project_id = $1',
      [scope.projectId],
    );
    expect(Object.fromEntries(rows.rows.map((row) => [row.id, row.cost]))).toEqual({
      [abandoned.usageId]: 0.25,
      [interrupted.usageId]: 0.5,
      [unpriced.usageId]: null,
    });
    const summary = await summariseUsage(database, { projectId: scope.projectId });
    expect(summary).toMatchObject({ total_cost_usd: 0.75, reserved_usd: 0, reserved_tokens: 0 });
  });
});
