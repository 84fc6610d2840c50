import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import {
  createHooks,
  registerHook,
  type SessionEndPayload,
  type SessionStartPayload,
} from '../harness/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson, startTestForja } from '../testing/forja-harness.ts';

describe.each(testDatabaseEngines())('session hooks on $name', (engine) => {
  let forja: Forja;
  afterEach(() => forja?.close());

  it('fires session_start once the session is created and session_end once it has ended, with its reason', async () => {
    const started: SessionStartPayload[] = [];
    const ended: SessionEndPayload[] = [];
    let hooks = registerHook(createHooks(), 'session_start', {
      name: 'audit-start',
      run: (payload) => void started.push(payload),
    });
    hooks = registerHook(hooks, 'session_end', {
      name: 'audit-end',
      run: (payload) => void ended.push(payload),
    });
    forja = await startTestForja(engine, { hooks });
    const project = await requestJson(forja, 'POST', '/api/projects', { name: 'Padaria' });
    const session = await requestJson(forja, 'POST', `/api/projects/${project.body.id}/sessions`, {
      title: 'Pães',
    });
    expect(session.status).toBe(201);
    expect(started).toEqual([
      { session_id: session.body.id, project_id: project.body.id, title: 'Pães' },
    ]);
    expect(ended).toEqual([]);

    const end = await requestJson(forja, 'POST', `/api/sessions/${session.body.id}/end`);
    expect(end.status).toBe(201);
    expect(ended).toEqual([
      { session_id: session.body.id, project_id: project.body.id, reason: end.body.reason },
    ]);
    // A refused second end is no end: the hook does not fire again.
    expect((await requestJson(forja, 'POST', `/api/sessions/${session.body.id}/end`)).status).toBe(
      409,
    );
    expect(ended).toHaveLength(1);
  });

  it('a session hook that throws is logged and does not fail the request, whose effect is stored', async () => {
    const hooks = registerHook(createHooks(), 'session_start', {
      name: 'broken',
      run: () => {
        throw new Error('observer down');
      },
    });
    forja = await startTestForja(engine, { hooks });
    const project = await requestJson(forja, 'POST', '/api/projects', { name: 'Padaria' });
    const session = await requestJson(
      forja,
      'POST',
      `/api/projects/${project.body.id}/sessions`,
      {},
    );
    expect(session.status).toBe(201);
    expect((await forja.eventLog.read(session.body.id)).map((event) => event.type)).toEqual([
      'session.created',
    ]);
  });
});
