import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_EVENTS } from '../domain/conversation/index.ts';
import { createEventLog, createProject, createSession, type Database } from '../store/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { handleCommand, handleConversationCommand } from './session-command.ts';
import { createSessionQueue } from './session-queue.ts';
import { createSessionViews } from './session-views.ts';

/** One process's handler dependencies: its own event log, queue and views over the shared database. */
function processOn(database: Database) {
  const eventLog = createEventLog(database);
  return { database, eventLog, queue: createSessionQueue(), views: createSessionViews(eventLog) };
}

describe.each(testDatabaseEngines())('the session command handler on $name', (engine) => {
  let database: Database;

  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(() => database.close());

  async function newSession(): Promise<string> {
    const project = await createProject(database, { name: 'p' });
    return (await createSession(database, { projectId: project.id })).id;
  }

  it('lets exactly one of 6 processes activating the same agent at once succeed; the others get the rule’s reason', async () => {
    const sessionId = await newSession();
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () =>
        handleConversationCommand(
          processOn(database),
          sessionId,
          { type: 'ActivateAgent', agent: 'criativo', actor: 'user' },
          { what: 'activating criativo', code: 'activation_refused' },
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    for (const outcome of outcomes.filter((each) => !each.ok))
      expect(outcome).toMatchObject({
        status: 409,
        code: 'activation_refused',
        message: expect.stringContaining('agent criativo is already active'),
      });
    const events = await createEventLog(database).read(sessionId);
    expect(events.filter((event) => event.type === 'agent.activated')).toHaveLength(1);
  });

  it('decides again after a conflict: 6 processes appending at once each append once, in one gap-free order', async () => {
    const sessionId = await newSession();
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        handleCommand(processOn(database), sessionId, {
          what: `note ${index}`,
          decide: (view) => ({
            ok: true,
            events: [SESSION_EVENTS.chatMessage.create('user', { v: 1, text: `note ${index}` })],
            value: view.state.last_seq,
          }),
        }),
      ),
    );
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    const events = await createEventLog(database).read(sessionId);
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Each append went in right after the view it was decided on.
    for (const outcome of outcomes)
      if (outcome.ok) expect(outcome.events[0]!.seq).toBe(outcome.value + 1);
  });
});
