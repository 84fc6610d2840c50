import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson, startTestForja } from '../testing/forja-harness.ts';
import { MAX_BODY_BYTES } from './app.ts';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(testDatabaseEngines())('HTTP API on $name', (engine) => {
  let forja: Forja;
  beforeAll(async () => {
    forja = await startTestForja(engine);
  });
  afterAll(() => forja.close());

  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    requestJson(forja, method, path, body, headers);
  const countRows = async (table: string) =>
    (await forja.database.query<{ count: number }>(`select count(*) as count from ${table}`))
      .rows[0]!.count;
  async function newSession() {
    const project = await call('POST', '/api/projects', { name: 'Bakery' });
    const session = await call('POST', `/api/projects/${project.body.id}/sessions`, {
      title: 'Ideas',
    });
    return { projectId: project.body.id as string, sessionId: session.body.id as string };
  }

  it('answers health with the database it runs on', async () => {
    const health = await call('GET', '/api/health');
    expect(health).toMatchObject({
      status: 200,
      body: { status: 'ok', database: { kind: engine.name } },
    });
  });

  it('creates, lists and shows projects and sessions', async () => {
    const created = await call('POST', '/api/projects', { name: '  Bakery  ' });
    expect(created).toMatchObject({ status: 201, body: { name: 'Bakery' } });
    expect((await call('GET', '/api/projects')).body.projects).toContainEqual(created.body);
    expect(await call('GET', `/api/projects/${created.body.id}`)).toMatchObject({
      status: 200,
      body: created.body,
    });
    const session = await call('POST', `/api/projects/${created.body.id}/sessions`, {});
    expect(session).toMatchObject({
      status: 201,
      body: { project_id: created.body.id, title: null, last_seq: 1 },
    });
    expect(
      await call('POST', `/api/projects/${created.body.id}/sessions`, { title: '  ' }),
    ).toMatchObject({ status: 201, body: { title: null } });
    expect(await call('GET', `/api/sessions/${session.body.id}`)).toMatchObject({
      status: 200,
      body: { id: session.body.id },
    });
    expect(
      (await call('GET', `/api/projects/${created.body.id}/sessions`)).body.sessions[0],
    ).toEqual(session.body);
  });

  it('appends a message as a chat.message event and reads it back in seq order', async () => {
    const { sessionId } = await newSession();
    const posted = await call('POST', `/api/sessions/${sessionId}/messages`, {
      text: 'A bakery that delivers at dawn',
    });
    expect(posted).toMatchObject({
      status: 201,
      body: {
        seq: 2,
        type: 'chat.message',
        actor: 'user',
        payload: { text: 'A bakery that delivers at dawn' },
      },
    });
    await call('POST', `/api/sessions/${sessionId}/messages`, { text: 'second' });
    const all = await call('GET', `/api/sessions/${sessionId}/events`);
    expect(
      all.body.events.map((event: { seq: number; type: string }) => [event.seq, event.type]),
    ).toEqual([
      [1, 'session.created'],
      [2, 'chat.message'],
      [3, 'chat.message'],
    ]);
    const page = await call('GET', `/api/sessions/${sessionId}/events?after=1&limit=1`);
    expect(page.body.events.map((event: { seq: number }) => event.seq)).toEqual([2]);
  });

  it('serves an OpenAPI document that lists the routes', async () => {
    const document = await call('GET', '/api/openapi.json');
    expect(document.status).toBe(200);
    expect(Object.keys(document.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/projects',
        '/api/projects/{id}/sessions',
        '/api/sessions/{id}/messages',
        '/api/sessions/{id}/events',
      ]),
    );
  });

  describe('refuses bad requests, naming the field and the rule, and stores nothing', () => {
    const cases: Array<
      [
        string,
        (ids: {
          projectId: string;
          sessionId: string;
        }) => [string, string, unknown, Record<string, string>?],
        number,
        string,
        string?,
      ]
    > = [
      ['malformed JSON', () => ['POST', '/api/projects', '{"name":'], 400, 'malformed_json'],
      ['a missing field', () => ['POST', '/api/projects', {}], 400, 'invalid_field', 'name'],
      ['a wrong type', () => ['POST', '/api/projects', { name: 42 }], 400, 'invalid_field', 'name'],
      [
        'an empty name',
        () => ['POST', '/api/projects', { name: '   ' }],
        400,
        'invalid_field',
        'name',
      ],
      [
        'an unknown field',
        () => ['POST', '/api/projects', { name: 'x', owner: 'me' }],
        400,
        'unknown_field',
        'owner',
      ],
      ['a JSON array body', () => ['POST', '/api/projects', [1, 2]], 400, 'invalid_request'],
      [
        'a body that is not JSON',
        () => [
          'POST',
          '/api/projects',
          'name=x',
          { 'content-type': 'application/x-www-form-urlencoded' },
        ],
        415,
        'unsupported_media_type',
      ],
      [
        'an oversized body',
        () => ['POST', '/api/projects', { name: 'x'.repeat(MAX_BODY_BYTES) }],
        413,
        'body_too_large',
      ],
      [
        'a project id that is not a UUID',
        () => ['POST', '/api/projects/123/sessions', {}],
        400,
        'invalid_field',
        'id',
      ],
      [
        'an unknown project',
        () => ['POST', `/api/projects/${UNKNOWN_ID}/sessions`, {}],
        404,
        'not_found',
        'id',
      ],
      [
        'a session title of the wrong type',
        ({ projectId }) => ['POST', `/api/projects/${projectId}/sessions`, { title: ['x'] }],
        400,
        'invalid_field',
        'title',
      ],
      [
        'an unknown session',
        () => ['POST', `/api/sessions/${UNKNOWN_ID}/messages`, { text: 'hi' }],
        404,
        'not_found',
        'id',
      ],
      [
        'an empty message',
        ({ sessionId }) => ['POST', `/api/sessions/${sessionId}/messages`, { text: ' \n ' }],
        400,
        'invalid_field',
        'text',
      ],
      [
        'a message that is not text',
        ({ sessionId }) => [
          'POST',
          `/api/sessions/${sessionId}/messages`,
          { text: { rich: true } },
        ],
        400,
        'invalid_field',
        'text',
      ],
      [
        'a message too long',
        ({ sessionId }) => [
          'POST',
          `/api/sessions/${sessionId}/messages`,
          { text: 'x'.repeat(32_001) },
        ],
        400,
        'invalid_field',
        'text',
      ],
      [
        'a message with an extra field',
        ({ sessionId }) => [
          'POST',
          `/api/sessions/${sessionId}/messages`,
          { text: 'hi', actor: 'system' },
        ],
        400,
        'unknown_field',
        'actor',
      ],
      [
        'a NUL in a project name',
        () => ['POST', '/api/projects', { name: 'Pa\u0000daria' }],
        400,
        'invalid_field',
        'name',
      ],
      [
        'a lone surrogate in a project name',
        () => ['POST', '/api/projects', { name: 'Padaria \ud83d' }],
        400,
        'invalid_field',
        'name',
      ],
      [
        'a lone surrogate in a session title',
        ({ projectId }) => ['POST', `/api/projects/${projectId}/sessions`, { title: '\udc00' }],
        400,
        'invalid_field',
        'title',
      ],
      [
        'a NUL in a message',
        ({ sessionId }) => ['POST', `/api/sessions/${sessionId}/messages`, { text: 'oi\u0000' }],
        400,
        'invalid_field',
        'text',
      ],
      [
        'a lone surrogate in a message',
        ({ sessionId }) => ['POST', `/api/sessions/${sessionId}/messages`, { text: 'oi \ud800' }],
        400,
        'invalid_field',
        'text',
      ],
      [
        'a NUL in a rejection reason',
        () => ['POST', `/api/handoffs/${UNKNOWN_ID}/reject`, { reason: '\u0000' }],
        400,
        'invalid_field',
        'reason',
      ],
      [
        'a NUL in instructions',
        ({ projectId }) => [
          'PUT',
          `/api/projects/${projectId}/agents/po/instructions`,
          { content: '\u0000' },
        ],
        400,
        'invalid_field',
        'content',
      ],
      [
        'a NUL in a search query',
        ({ projectId }) => [
          'POST',
          `/api/projects/${projectId}/rag/search`,
          { query: 'pão\u0000' },
        ],
        400,
        'invalid_field',
        'query',
      ],
      [
        'a text body on a route without a body',
        ({ sessionId }) => [
          'POST',
          `/api/sessions/${sessionId}/readiness?wait=true`,
          'go',
          { 'content-type': 'text/plain' },
        ],
        415,
        'unsupported_media_type',
      ],
      [
        'malformed JSON on a route without a body',
        ({ sessionId }) => [
          'POST',
          `/api/sessions/${sessionId}/end`,
          '{"',
          { 'content-type': 'application/json' },
        ],
        400,
        'malformed_json',
      ],
      [
        'a field on a route without a body',
        ({ sessionId }) => [
          'POST',
          `/api/sessions/${sessionId}/agents/criativo/start`,
          { force: true },
        ],
        400,
        'unknown_field',
        'force',
      ],
      [
        'an array on a route without a body',
        ({ sessionId }) => ['POST', `/api/sessions/${sessionId}/kickoffs`, []],
        400,
        'invalid_request',
      ],
    ];

    it.each(cases)('%s', async (_name, build, status, code, field) => {
      const ids = await newSession();
      const before = {
        projects: await countRows('projects'),
        sessions: await countRows('sessions'),
        events: await countRows('session_events'),
      };
      const [method, path, body, headers] = build(ids);
      const response = await call(method, path, body, headers);
      expect(response.status).toBe(status);
      expect(response.body.error.code).toBe(code);
      expect(response.body.error.message).toEqual(expect.any(String));
      if (field) expect(response.body.error.field).toBe(field);
      expect({
        projects: await countRows('projects'),
        sessions: await countRows('sessions'),
        events: await countRows('session_events'),
      }).toEqual(before);
    });

    it.each([
      ['after=-1', 'after'],
      ['after=abc', 'after'],
      ['limit=0', 'limit'],
      ['limit=5000', 'limit'],
      ['limit=1.5', 'limit'],
      ['after=0x10', 'after'],
      ['after=2147483648', 'after'],
      ['after=1e3', 'after'],
      ['limit=+1', 'limit'],
      ['after=1&after=2', 'after'],
    ])('a bad events query: %s', async (query, field) => {
      const { sessionId } = await newSession();
      const response = await call('GET', `/api/sessions/${sessionId}/events?${query}`);
      expect(response).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_field', field } },
      });
    });

    it('accepts an empty body, whatever its content type, or {} on a route that takes no body', async () => {
      const { sessionId } = await newSession();
      expect(
        (
          await call('POST', `/api/sessions/${sessionId}/agents/criativo/start`, '', {
            'content-type': 'text/plain',
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await call('POST', `/api/sessions/${sessionId}/kickoffs`, '', {
            'content-type': 'application/json',
          })
        ).status,
      ).toBe(202);
      expect((await call('POST', `/api/sessions/${sessionId}/kickoffs`, {})).status).toBe(202);
      expect((await call('POST', `/api/sessions/${sessionId}/end`)).status).toBe(201);
    });

    it('answers JSON 404 for an unknown route', async () => {
      expect(await call('GET', '/api/nothing-here')).toMatchObject({
        status: 404,
        body: { error: { code: 'not_found' } },
      });
    });
  });
});
