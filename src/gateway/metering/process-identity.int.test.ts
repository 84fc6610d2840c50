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
import { createScriptedProvider, type ModelProvider } from '../providers/index.ts';
import { startProcessIdentity } from './process-identity.ts';
import { summariseUsage } from './usage-summary.ts';

const silent = pino({ level: 'silent' });

/** The scripted model, held after its first `parts` stream parts until the test lets it go (a call mid-stream). */
function heldAfter(provider: ModelProvider, parts: number) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  const wrapped: ModelProvider = {
    name: provider.name,
    model: provider.model,
    async *stream(request, options) {
      let sent = 0;
      for await (const part of provider.stream(request, options)) {
        if (sent++ === parts) reached(), await released;
        yield part;
      }
    },
  };
  return { provider: wrapped, held, release };
}

describe.each(testDatabaseEngines())('reservations of a dead process on $name', (engine) => {
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
  const turnFor = (scope: { projectId: string; sessionId: string }): GatewayTurnRequest => ({
    ...scope,
    agent: 'criativo',
    system: 'You are Criativo.',
    messages: [{ role: 'user', content: 'An idea' }],
    tools: [],
    maxOutputTokens: 100,
  });
  const text =
    'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen';

  it('settles a call whose process stopped mid-stream as interrupted: input estimated, output streamed so far, counted as spent', async () => {
    const scope = await newScope();
    const first = await startProcessIdentity(database, { heartbeatMs: 60_000 });
    const { provider, held, release } = heldAfter(
      createScriptedProvider({ script: { turns: [{ agent: 'criativo', text }] } }),
      8,
    );
    const gateway = createModelGateway({
      database,
      eventLog,
      logger: silent,
      provider,
      processId: first.id,
      streamedOutputEveryMs: 0,
    });
    let streamedText = '';
    const turn = gateway.runTurn(turnFor(scope), {
      onTextDelta: (delta) => (streamedText += delta),
    });
    await held;
    // The output streamed so far reaches the reservation (written behind the stream, one write in flight).
    const streamedTokens = Math.ceil(Buffer.byteLength(streamedText) / 4);
    for (let tries = 0; tries < 200; tries++) {
      const row = await database.query<{ tokens: number }>(
        'select streamed_output_tokens as tokens from token_usage where session_id = $1',
        [scope.sessionId],
      );
      if (row.rows[0]?.tokens === streamedTokens) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const open = await database.query<{
      outcome: string;
      reserved_tokens: number;
      input_estimate: number;
      streamed_output_tokens: number;
    }>(
      'select outcome, reserved_tokens, input_estimate, streamed_output_tokens from token_usage where session_id = $1',
      [scope.sessionId],
    );
    // Reserved from the upper bound of the input (ADR 0131) plus the output cap; the estimate is kept apart for settling.
    expect(open.rows).toEqual([
      {
        outcome: 'reserved',
        reserved_tokens: reservedTokensFor(turnFor(scope)),
        input_estimate: expect.any(Number),
        streamed_output_tokens: expect.any(Number),
      },
    ]);
    expect(open.rows[0]!.streamed_output_tokens).toBe(streamedTokens);
    expect(streamedTokens).toBeGreaterThan(0);

    // A second process starts (on PGlite: at start-up; on a server: once the first stops beating).
    if (database.kind === 'postgres') {
      const live = await startProcessIdentity(database, {
        heartbeatMs: 60_000,
        staleAfterMs: 60_000,
      });
      expect(await live.sweep()).toBe(0);
      await database.query(
        `update forja_processes set last_seen = now() - interval '1 hour' where id = $1`,
        [first.id],
      );
      expect(await live.sweep()).toBe(1);
      await live.close();
    } else {
      const next = await startProcessIdentity(database);
      await next.close();
    }
    const settled = await database.query<Record<string, unknown>>(
      'select outcome, reserved_tokens, input_tokens, output_tokens, estimated from token_usage where session_id = $1',
      [scope.sessionId],
    );
    expect(settled.rows).toEqual([
      {
        outcome: 'interrupted',
        reserved_tokens: 0,
        input_tokens: open.rows[0]!.input_estimate,
        output_tokens: open.rows[0]!.streamed_output_tokens,
        estimated: true,
      },
    ]);
    const usage = await summariseUsage(database, { projectId: scope.projectId });
    expect(usage.reserved_tokens).toBe(0);
    expect(usage.total_tokens).toBe(
      open.rows[0]!.input_estimate + open.rows[0]!.streamed_output_tokens,
    );
    expect(usage.by_agent_and_model[0]).toMatchObject({
      calls: 1,
      interrupted_calls: 1,
      interrupted_tokens: open.rows[0]!.input_estimate + open.rows[0]!.streamed_output_tokens,
    });

    // The first process was not dead after all (a test can resume it): its late settlement changes nothing.
    release();
    await turn;
    expect(
      (
        await database.query('select outcome from token_usage where session_id = $1', [
          scope.sessionId,
        ])
      ).rows,
    ).toEqual([{ outcome: 'interrupted' }]);
    await first.close();
  });

  it('never settles a live process reservation on a server, and settles its own on close', async () => {
    const scope = await newScope();
    const first = await startProcessIdentity(database, { heartbeatMs: 60_000 });
    const { provider, held, release } = heldAfter(
      createScriptedProvider({ script: { turns: [{ agent: 'criativo', text }] } }),
      2,
    );
    const gateway = createModelGateway({
      database,
      eventLog,
      logger: silent,
      provider,
      processId: first.id,
    });
    const turn = gateway.runTurn(turnFor(scope));
    await held;
    if (database.kind === 'postgres') {
      const other = await startProcessIdentity(database, { heartbeatMs: 60_000 });
      await other.sweep();
      await other.close();
      expect(
        (
          await database.query('select outcome from token_usage where session_id = $1', [
            scope.sessionId,
          ])
        ).rows,
      ).toEqual([{ outcome: 'reserved' }]);
    }
    await first.close();
    expect((await summariseUsage(database, { projectId: scope.projectId })).reserved_tokens).toBe(
      0,
    );
    release();
    await turn;
  });

  it('on a server, beats its row back after another process swept it (a stall), so its lane leases stay its own', async () => {
    const identity = await startProcessIdentity(database, { heartbeatMs: 50 });
    const row = async () =>
      (await database.query('select id from forja_processes where id = $1', [identity.id])).rows;
    await database.query('delete from forja_processes where id = $1', [identity.id]);
    if (database.kind === 'postgres')
      for (const until = Date.now() + 30_000; (await row()).length === 0 && Date.now() < until; )
        await new Promise((resolve) => setTimeout(resolve, 20));
    // PGlite beats nothing: one process owns the data directory.
    expect(await row()).toHaveLength(database.kind === 'postgres' ? 1 : 0);
    await identity.close();
  });
});
