import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database.ts';
import { createEventLog, type EventLog } from '../event-log/event-log.ts';
import { createProject } from '../projects/projects.ts';
import { createSession } from '../projects/sessions.ts';
import { testDatabaseEngines } from '../testing/test-databases.ts';
import { readForjaStatus } from './forja-status.ts';

const STALE_AFTER_MS = 20_000;

describe.each(testDatabaseEngines())('forja status on $name', (engine) => {
  let database: Database;
  let eventLog: EventLog;
  beforeAll(async () => {
    database = await engine.open();
    eventLog = createEventLog(database);
  });
  afterAll(() => database.close());

  const message = (text: string, to: string) => ({
    type: 'chat.message',
    actor: 'user',
    payload: { v: 1, text, to },
  });
  const turnStarted = (agent: string, turnId: string) => ({
    type: 'turn.started',
    actor: agent,
    payload: { v: 1, agent, turn_id: turnId, kind: 'message' },
  });
  const response = (agent: string, turnId: string, toolCalls?: unknown[]) => ({
    type: 'agent.response',
    actor: agent,
    payload: {
      v: 1,
      agent,
      text: 'ok',
      turn_id: turnId,
      ...(toolCalls ? { tool_calls: toolCalls } : {}),
    },
  });
  const activated = (agent: string, handoffId: string | null) => ({
    type: 'agent.activated',
    actor: 'system',
    payload: { v: 1, agent, handoff_id: handoffId },
  });

  async function newSession(title: string) {
    const project = await createProject(database, { name: title });
    const session = await createSession(database, { projectId: project.id, title });
    return { projectId: project.id, sessionId: session.id };
  }

  async function reserve(projectId: string, sessionId: string, tokens: number, processId: string) {
    await database.query(
      'select * from forja_reserve_call($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)',
      [
        randomUUID(),
        projectId,
        sessionId,
        'criativo',
        'scripted',
        'm',
        tokens,
        null,
        processId,
        tokens,
      ],
    );
  }

  it('lists which process holds each leased lane, and not a lease that ran out (on PGlite: lanes are in-process)', async () => {
    const { sessionId } = await newSession('leased');
    const owner = randomUUID();
    await database.query('insert into forja_processes (id, pid, host) values ($1, $2, $3)', [
      owner,
      5151,
      'host-b',
    ]);
    const take = (lane: string, seconds: number) =>
      database.query('select forja_take_lane($1, $2, $3, $4) as epoch', [
        sessionId,
        lane,
        owner,
        seconds,
      ]);
    await take('criativo', 60);
    await take('dev:pedidos', 60);
    // A lease whose time is already over: its lane is free, nobody runs it.
    await take('po', -1);

    const status = await readForjaStatus(database, { staleAfterMs: STALE_AFTER_MS });
    const shown = status.sessions.find((session) => session.session_id === sessionId);
    // The process holding PGlite's data directory runs every lane: no lease row is read as an owner.
    if (engine.name === 'pglite') return expect(shown?.lane_owners).toBeNull();
    expect(
      shown?.lane_owners?.map((lease) => [lease.lane, lease.owner, lease.pid, lease.epoch]),
    ).toEqual([
      ['criativo', owner, 5151, 1],
      ['dev:pedidos', owner, 5151, 1],
    ]);
  });

  it('shows per session the messages waiting, kickoffs owed, turns running and tokens reserved; idle sessions only counted', async () => {
    const before = await readForjaStatus(database, { staleAfterMs: STALE_AFTER_MS });
    const busy = await newSession('busy');
    const idle = await newSession('idle');
    const processId = randomUUID();
    await database.query('insert into forja_processes (id, pid, host) values ($1, $2, $3)', [
      processId,
      4242,
      'host-a',
    ]);
    const turnOfCriativo = randomUUID();
    const turnOfArquiteto = randomUUID();
    await eventLog.append(busy.sessionId, [
      activated('criativo', null),
      message('first', 'criativo'),
      turnStarted('criativo', turnOfCriativo),
      // Written while Criativo's turn runs: it waits for the next turn.
      message('second', 'criativo'),
      message('third', 'criativo'),
      // Started by the person (no handoff): no kickoff is owed, even before its first turn.
      activated('psicologo', null),
      activated('po', randomUUID()),
      activated('arquiteto', randomUUID()),
      turnStarted('arquiteto', turnOfArquiteto),
      // A response with tool calls does not end the turn.
      response('arquiteto', turnOfArquiteto, [{ id: 'c1', name: 'x', arguments: {} }]),
    ]);
    // Idle: its message was answered and the turn ended.
    const answered = randomUUID();
    await eventLog.append(idle.sessionId, [
      activated('criativo', null),
      message('hello', 'criativo'),
      turnStarted('criativo', answered),
      response('criativo', answered),
    ]);
    await reserve(busy.projectId, busy.sessionId, 1_000, processId);
    await reserve(busy.projectId, busy.sessionId, 500, processId);

    const status = await readForjaStatus(database, { staleAfterMs: STALE_AFTER_MS });
    expect(status.database).toBe(engine.name);
    const shown = status.sessions.find((session) => session.session_id === busy.sessionId);
    expect(shown).toMatchObject({
      project_id: busy.projectId,
      title: 'busy',
      unanswered_messages: 2,
      pending_kickoffs: ['po'],
      reserved_calls: 2,
      reserved_tokens: 1_500,
      lane_owners: engine.name === 'pglite' ? null : [],
    });
    expect(shown!.turns_in_progress.map((turn) => [turn.agent, turn.turn_id, turn.kind])).toEqual([
      ['criativo', turnOfCriativo, 'message'],
      ['arquiteto', turnOfArquiteto, 'message'],
    ]);
    expect(status.sessions.some((session) => session.session_id === idle.sessionId)).toBe(false);
    expect(status.idle_sessions).toBe(before.idle_sessions + 1);
    expect(status.reserved.calls - before.reserved.calls).toBe(2);
    expect(status.reserved.tokens - before.reserved.tokens).toBe(1_500);
    const row = status.processes.find((process) => process.id === processId);
    expect(row).toMatchObject({ pid: 4242, host: 'host-a' });
    // PGlite: whoever reads holds the data directory, so no other process can be running on it.
    expect(row!.alive).toBe(engine.name === 'postgres');

    // The turns end, the kickoff is taken, the messages are answered: the session drops out.
    const poTurn = randomUUID();
    const nextCriativo = randomUUID();
    await eventLog.append(busy.sessionId, [
      {
        type: 'turn.failed',
        actor: 'system',
        payload: { v: 1, turn_id: turnOfArquiteto, reason: 'x' },
      },
      response('criativo', turnOfCriativo),
      turnStarted('po', poTurn),
      response('po', poTurn),
      turnStarted('criativo', nextCriativo),
      response('criativo', nextCriativo),
    ]);
    await database.query(
      `update token_usage set outcome = 'completed', reserved_tokens = 0, settled_at = now() where session_id = $1`,
      [busy.sessionId],
    );
    const after = await readForjaStatus(database, { staleAfterMs: STALE_AFTER_MS });
    expect(after.sessions.some((session) => session.session_id === busy.sessionId)).toBe(false);
    expect(after.idle_sessions).toBe(before.idle_sessions + 2);
  });

  it('a new turn of a lane replaces its unfinished one; a response without turn id (older logs) ends the lane', async () => {
    const { sessionId } = await newSession('replaced');
    const old = randomUUID();
    const current = randomUUID();
    await eventLog.append(sessionId, [
      turnStarted('criativo', old),
      turnStarted('criativo', current),
      turnStarted('po', randomUUID()),
      { type: 'agent.response', actor: 'po', payload: { v: 1, agent: 'po', text: 'old log' } },
    ]);
    const status = await readForjaStatus(database, { staleAfterMs: STALE_AFTER_MS });
    const shown = status.sessions.find((session) => session.session_id === sessionId);
    expect(shown!.turns_in_progress.map((turn) => turn.turn_id)).toEqual([current]);
  });

  it('counts pending outbox rows by type with the oldest one age, and the ones waiting for a retry', async () => {
    const { sessionId } = await newSession('outbox');
    const before = await readForjaStatus(database, { staleAfterMs: STALE_AFTER_MS });
    const aggregateType = `status-test-${randomUUID()}`;
    await eventLog.append(sessionId, [
      {
        type: 'chat.message',
        actor: 'user',
        payload: { v: 1, text: 'x' },
        outbox: [
          { aggregateType, aggregateId: '1' },
          { aggregateType, aggregateId: '2' },
        ],
      },
    ]);
    await database.query(
      `update outbox set created_at = now() - interval '90 seconds', attempts = 1, last_error = 'boom'
       where aggregate_type = $1 and aggregate_id = '1'`,
      [aggregateType],
    );
    await database.query(
      `update outbox set processed_at = now() where aggregate_type = $1 and aggregate_id = '2'`,
      [aggregateType],
    );
    const status = await readForjaStatus(database, { staleAfterMs: STALE_AFTER_MS });
    const ofType = status.outbox.by_type.find((row) => row.aggregate_type === aggregateType);
    expect(ofType?.pending).toBe(1);
    expect(ofType!.oldest_pending_age_ms).toBeGreaterThanOrEqual(90_000);
    expect(status.outbox.pending - before.outbox.pending).toBe(1);
    expect(status.outbox.retrying - before.outbox.retrying).toBe(1);
    expect(status.outbox.oldest_pending_age_ms!).toBeGreaterThanOrEqual(90_000);
  });

  it('a server process whose heartbeat is older than the stale time is not alive', async () => {
    const id = randomUUID();
    await database.query(
      `insert into forja_processes (id, pid, host, last_seen) values ($1, 7, 'h', now() - interval '1 minute')`,
      [id],
    );
    const status = await readForjaStatus(database, { staleAfterMs: STALE_AFTER_MS });
    const row = status.processes.find((process) => process.id === id);
    expect(row!.silent_ms).toBeGreaterThanOrEqual(60_000);
    expect(row!.alive).toBe(false);
  });
});
