import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEventLog,
  createProject,
  createSession,
  type Database,
  type EventLog,
} from '../store/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { createModelGateway } from './create-model-gateway.ts';
import type { GatewayTurnRequest } from './model-gateway.ts';
import { setProjectBudget } from './metering/project-budget.ts';
import { summariseUsage } from './metering/usage-summary.ts';
import {
  createScriptedProvider,
  ProviderStreamError,
  type ModelProvider,
  type ScriptInput,
} from './providers/index.ts';

const silent = pino({ level: 'silent' });

/** Counts the calls that reach the provider, to prove a refused turn never does. */
function counting(provider: ModelProvider) {
  const counter = { calls: 0 };
  const wrapped: ModelProvider = {
    name: provider.name,
    model: provider.model,
    stream: (request, options) => (counter.calls++, provider.stream(request, options)),
  };
  return { provider: wrapped, counter };
}

describe.each(testDatabaseEngines())('model gateway on $name', (engine) => {
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
  const turnFor = (
    scope: { projectId: string; sessionId: string },
    agent = 'criativo',
  ): GatewayTurnRequest => ({
    ...scope,
    agent,
    system: 'You are Criativo.',
    messages: [{ role: 'user', content: 'An idea' }],
    tools: [],
    maxOutputTokens: 100,
  });
  const usageRows = (sessionId: string) =>
    database.query<Record<string, unknown>>(
      'select agent, provider, model, outcome, input_tokens, output_tokens, estimated, reserved_tokens from token_usage where session_id = $1 order by created_at',
      [sessionId],
    );

  it('streams text deltas to the caller and meters the turn with the reported usage', async () => {
    const scope = await newScope();
    const script: ScriptInput = {
      turns: [
        {
          agent: 'criativo',
          text: 'A bakery at dawn, by subscription.',
          usage: { input_tokens: 12, output_tokens: 7 },
        },
      ],
    };
    const gateway = createModelGateway({
      database,
      eventLog,
      logger: silent,
      provider: createScriptedProvider({ script }),
    });
    const deltas: string[] = [];
    const outcome = await gateway.runTurn(turnFor(scope), {
      onTextDelta: (text) => deltas.push(text),
    });
    expect(outcome).toMatchObject({
      status: 'completed',
      text: 'A bakery at dawn, by subscription.',
      usage: { inputTokens: 12, outputTokens: 7, estimated: false },
    });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('A bakery at dawn, by subscription.');
    expect((await usageRows(scope.sessionId)).rows).toEqual([
      {
        agent: 'criativo',
        provider: 'scripted',
        model: expect.any(String),
        outcome: 'completed',
        input_tokens: 12,
        output_tokens: 7,
        estimated: false,
        reserved_tokens: 0,
      },
    ]);
  });

  it('estimates and flags usage the provider did not report', async () => {
    const scope = await newScope();
    const gateway = createModelGateway({
      database,
      eventLog,
      logger: silent,
      provider: createScriptedProvider({
        script: { turns: [{ agent: 'criativo', text: 'twelve bytes' }] },
      }),
    });
    const outcome = await gateway.runTurn(turnFor(scope));
    expect(outcome).toMatchObject({
      status: 'completed',
      usage: { outputTokens: 3, estimated: true },
    });
    expect((await usageRows(scope.sessionId)).rows[0]).toMatchObject({
      estimated: true,
      output_tokens: 3,
    });
  });

  it('answers not_configured, naming what to set, and meters nothing', async () => {
    const scope = await newScope();
    const gateway = createModelGateway({
      database,
      eventLog,
      logger: silent,
      provider: { notConfigured: 'No model configured: set FORJA_MODEL' },
    });
    expect(gateway.status()).toEqual({
      configured: false,
      message: 'No model configured: set FORJA_MODEL',
    });
    expect(await gateway.runTurn(turnFor(scope))).toEqual({
      status: 'not_configured',
      message: 'No model configured: set FORJA_MODEL',
    });
    expect((await usageRows(scope.sessionId)).rows).toEqual([]);
  });

  it('records a provider failure and a cancellation as metered outcomes', async () => {
    const scope = await newScope();
    const failing: ModelProvider = {
      name: 'broken',
      model: 'm',
      async *stream() {
        yield { type: 'text-delta', text: 'half an ans' };
        throw new ProviderStreamError({
          provider: 'broken',
          message: 'overloaded in the middle of the stream',
        } as never);
      },
    };
    const gateway = createModelGateway({ database, eventLog, logger: silent, provider: failing });
    const failed = await gateway.runTurn(turnFor(scope));
    expect(failed).toMatchObject({ status: 'failed', partialText: 'half an ans' });

    const controller = new AbortController();
    const slow = createModelGateway({
      database,
      eventLog,
      logger: silent,
      provider: createScriptedProvider({
        script: { turns: [{ agent: 'criativo', text: 'one two three four five six' }] },
      }),
    });
    const cancelled = await slow.runTurn(turnFor(scope), {
      signal: controller.signal,
      onTextDelta: () => controller.abort(),
    });
    expect(cancelled.status).toBe('cancelled');
    expect((await usageRows(scope.sessionId)).rows.map((row) => row.outcome)).toEqual([
      'error',
      'cancelled',
    ]);
  });

  it('refuses a turn over budget before the provider, appending budget.exceeded with the figures', async () => {
    const scope = await newScope();
    await setProjectBudget(database, scope.projectId, 50);
    const { provider, counter } = counting(
      createScriptedProvider({
        script: { turns: [{ agent: 'criativo', text: 'never streamed' }] },
      }),
    );
    const gateway = createModelGateway({ database, eventLog, logger: silent, provider });
    const outcome = await gateway.runTurn(turnFor(scope));
    expect(outcome).toMatchObject({
      status: 'budget_exceeded',
      figures: { max_tokens: 50, spent_tokens: 0, reserved_tokens: 0 },
    });
    expect(counter.calls).toBe(0);
    const events = await eventLog.read(scope.sessionId, { afterSeq: 1 });
    expect(events).toMatchObject([
      { type: 'budget.exceeded', actor: 'system', payload: { agent: 'criativo', max_tokens: 50 } },
    ]);
    expect((await usageRows(scope.sessionId)).rows.map((row) => row.outcome)).toEqual(['refused']);
  });

  it('keeps 50 concurrent turns within the budget plus one reservation, with no provider call after a refusal', async () => {
    const scope = await newScope();
    const turns = Array.from({ length: 50 }, () => ({
      agent: 'criativo',
      text: 'a reasonably long answer from the model',
      usage: { input_tokens: 40, output_tokens: 90 },
    }));
    const { provider, counter } = counting(createScriptedProvider({ script: { turns } }));
    const gateway = createModelGateway({ database, eventLog, logger: silent, provider });
    const request = turnFor(scope);
    const reservation =
      Buffer.byteLength(request.system + JSON.stringify(request.messages)) +
      8 * (request.messages.length + 1) +
      request.maxOutputTokens;
    const budget = 1000;
    await setProjectBudget(database, scope.projectId, budget);
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => gateway.runTurn(request)));
    const completed = outcomes.filter((outcome) => outcome.status === 'completed').length;
    const refused = outcomes.filter((outcome) => outcome.status === 'budget_exceeded').length;
    expect(completed + refused).toBe(50);
    expect(completed).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(counter.calls).toBe(completed);
    const summary = await summariseUsage(database, { projectId: scope.projectId });
    expect(summary.total_tokens).toBeLessThanOrEqual(budget + reservation);
    expect(summary.reserved_tokens).toBe(0);
  });

  it('keeps 60 concurrent turns within the budget plus one reservation when the provider counts 3x the estimate, and refuses only while it is true', async () => {
    const scope = await newScope();
    const request = turnFor(scope);
    const estimate = Math.ceil(
      Buffer.byteLength(request.system + JSON.stringify(request.messages)) / 4,
    );
    const turns = Array.from({ length: 61 }, () => ({
      agent: 'criativo',
      text: 'an answer',
      usage: { input_tokens: 3 * estimate, output_tokens: request.maxOutputTokens },
    }));
    const { provider, counter } = counting(createScriptedProvider({ script: { turns } }));
    const gateway = createModelGateway({ database, eventLog, logger: silent, provider });
    const reservation =
      Buffer.byteLength(request.system + JSON.stringify(request.messages)) +
      8 * (request.messages.length + 1) +
      request.maxOutputTokens;
    const budget = 1500;
    await setProjectBudget(database, scope.projectId, budget);
    const outcomes = await Promise.all(Array.from({ length: 60 }, () => gateway.runTurn(request)));
    const completed = outcomes.filter((outcome) => outcome.status === 'completed').length;
    expect(completed).toBeGreaterThan(0);
    expect(outcomes.filter((outcome) => outcome.status === 'budget_exceeded')).toHaveLength(
      60 - completed,
    );
    expect(counter.calls).toBe(completed);
    const summary = await summariseUsage(database, { projectId: scope.projectId });
    expect(summary.total_tokens).toBeLessThanOrEqual(budget + reservation);
    expect(summary.reserved_tokens).toBe(0);
    // A refusal holds while it is true: with the budget raised, the same turn runs.
    await setProjectBudget(database, scope.projectId, summary.total_tokens + reservation);
    expect((await gateway.runTurn(request)).status).toBe('completed');
  });

  it('sums usage by agent and model for a project and for a session', async () => {
    const scope = await newScope();
    const other = await createSession(database, { projectId: scope.projectId });
    const script: ScriptInput = {
      turns: [
        { agent: 'criativo', text: 'a', usage: { input_tokens: 10, output_tokens: 1 } },
        { agent: 'criativo', text: 'b', usage: { input_tokens: 20, output_tokens: 2 } },
        { agent: 'po', text: 'c', usage: { input_tokens: 30, output_tokens: 3 } },
      ],
    };
    const gateway = createModelGateway({
      database,
      eventLog,
      logger: silent,
      provider: createScriptedProvider({ script }),
    });
    await gateway.runTurn(turnFor(scope));
    await gateway.runTurn(turnFor({ ...scope, sessionId: other.id }));
    await gateway.runTurn(turnFor(scope, 'po'));
    const project = await summariseUsage(database, { projectId: scope.projectId });
    expect(project.total_tokens).toBe(66);
    expect(
      project.by_agent_and_model.map((line) => [line.agent, line.calls, line.total_tokens]),
    ).toEqual([
      ['criativo', 2, 33],
      ['po', 1, 33],
    ]);
    const session = await summariseUsage(database, { sessionId: scope.sessionId });
    expect(
      session.by_agent_and_model.map((line) => [line.agent, line.calls, line.total_tokens]),
    ).toEqual([
      ['criativo', 1, 11],
      ['po', 1, 33],
    ]);
  });
});
