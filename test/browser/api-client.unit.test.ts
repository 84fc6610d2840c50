import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { getJson, postJson } from '../../web/src/api/client.ts';
import type { SessionLine } from '../../web/src/api/types.ts';

/**
 * The web's API client (ADR 0423): a call names the route as the document writes it and fills it in; its answer
 * has that route's type, and a route, parameter or body the document does not have does not compile.
 */
const requested: Array<{ url: string; init: RequestInit }> = [];
function answering(body: unknown, status = 200) {
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    requested.push({ url, init });
    return new Response(JSON.stringify(body), { status });
  });
}
afterEach(() => {
  vi.unstubAllGlobals();
  requested.length = 0;
});

describe('callApi', () => {
  it('fills the path parameters, encoded, and the query, and sends the body as JSON', async () => {
    answering({ events: [] });
    await getJson('/api/sessions/{id}/events', {
      path: { id: 'a/b' },
      query: { after: '3', limit: '100' },
    });
    expect(requested[0]!.url).toBe('/api/sessions/a%2Fb/events?after=3&limit=100');

    answering({ id: 'p', name: 'Padaria', created_at: '' }, 201);
    const project = await postJson('/api/projects', { body: { name: 'Padaria' } });
    expect(requested[1]).toMatchObject({
      url: '/api/projects',
      init: { method: 'POST', body: '{"name":"Padaria"}' },
    });
    expect(project.name).toBe('Padaria');
  });

  it("types each call by its route: the answer is the route's, a wrong call does not compile", () => {
    const line = () => getJson('/api/sessions/{id}/line', { path: { id: 's' } });
    expectTypeOf(line).returns.resolves.toEqualTypeOf<SessionLine>();
    const events = () => getJson('/api/sessions/{id}/events', { path: { id: 's' } });
    type Event = Awaited<ReturnType<typeof events>>['events'][number];
    // The events' union narrows the payload by `type`.
    expectTypeOf<Extract<Event, { type: 'chat.message' }>['payload']['text']>().toBeString();
    expectTypeOf<Extract<Event, { type: `artifact.${string}` }>['payload']['data']>().toBeUnknown();

    const wrongCalls = () => {
      // @ts-expect-error a route the document does not have
      void getJson('/api/sessions/{id}/lines', { path: { id: 's' } });
      // @ts-expect-error the route's path parameter left out
      void getJson('/api/sessions/{id}/line');
      // @ts-expect-error a body field the route does not take
      void postJson('/api/projects', { body: { title: 'Padaria' } });
    };
    expect(wrongCalls).toBeTypeOf('function');
  });
});
