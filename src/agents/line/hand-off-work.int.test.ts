import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rehydrate, SESSION_EVENTS } from '../../domain/conversation/index.ts';
import { offerHandoff, transitionHandoff } from '../../domain/handoffs/index.ts';
import {
  createEventLog,
  createProject,
  createSession,
  insertHandoff,
  updateHandoffStatus,
  type Database,
  type EventLog,
} from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { handOffWork } from './hand-off-work.ts';

describe.each(testDatabaseEngines())('handing off work on $name', (engine) => {
  let database: Database;
  let eventLog: EventLog;

  beforeAll(async () => {
    database = await engine.open();
    eventLog = createEventLog(database);
  });
  afterAll(() => database.close());

  /** A session where Criativo handed to the PO and the PO accepted and is active. */
  async function sessionWithThePoAtWork(): Promise<string> {
    const project = await createProject(database, { name: 'p' });
    const sessionId = (await createSession(database, { projectId: project.id })).id;
    const offered = offerHandoff({
      id: randomUUID(),
      session_id: sessionId,
      from_agent: 'criativo',
      to_agent: 'po',
      artifact_id: null,
      actor: 'criativo',
    });
    if (!offered.ok) throw new Error(offered.reason);
    await insertHandoff(database, offered.handoff);
    const accepted = transitionHandoff(offered.handoff, { type: 'accept', actor: 'user' });
    if (!accepted.ok) throw new Error(accepted.reason);
    await updateHandoffStatus(database, accepted.handoff);
    await eventLog.append(sessionId, [
      SESSION_EVENTS.agentActivated.create('user', { v: 1, agent: 'criativo', handoff_id: null }),
      offered.event,
      accepted.event,
      SESSION_EVENTS.agentActivated.create('system', {
        v: 1,
        agent: 'po',
        handoff_id: offered.handoff.id,
      }),
    ]);
    return sessionId;
  }

  it('decides again on the log when a lane appended after the state it was given, and hands off once', async () => {
    const sessionId = await sessionWithThePoAtWork();
    const stale = rehydrate(await eventLog.read(sessionId));
    await eventLog.append(sessionId, [
      SESSION_EVENTS.chatMessage.create('user', { v: 1, text: 'meanwhile', to: 'criativo' }),
    ]);
    const outcome = await handOffWork(
      { database, eventLog, newId: randomUUID, prompts: {} as never },
      { sessionId, state: stale, from: 'po', to: ['arquiteto'], artifactId: null },
    );
    expect(outcome).toMatchObject({ ok: true, offered: [{ to_agent: 'arquiteto' }] });
    const types = (await eventLog.read(sessionId)).map((event) => event.type);
    expect(types.slice(-3)).toEqual(['chat.message', 'handoff.completed', 'handoff.offered']);
  });
});
