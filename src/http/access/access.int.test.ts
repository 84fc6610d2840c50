import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../accounts/passwords.ts';
import { newSecret, TOKEN_PREFIX } from '../../accounts/secrets.ts';
import { createSignInLimiter, DEFAULT_SIGN_IN_BACKOFF } from '../../accounts/sign-in-limiter.ts';
import { createForja, type Forja } from '../../composition.ts';
import { type ForjaConfig, loadConfig } from '../../config/config.ts';
import {
  createPerson,
  insertApiToken,
  insertHandoff,
  revokeApiToken,
  signInFailuresIn,
  type Database,
  type Person,
} from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson, startTestForja } from '../../testing/forja-harness.ts';
import { classifyPath } from './access-middleware.ts';

const PASSWORD = 'a long enough password';
/** Two failures free per account and address, then 60 s, 120 s, … */
const TEST_BACKOFF = {
  ...DEFAULT_SIGN_IN_BACKOFF,
  freePerAccountAndAddress: 2,
  freePerAddress: 100,
  baseDelaySeconds: 60,
};

/** Every documented route, with its path parameters filled in from the given ids. */
async function documentedRoutes(
  forja: Forja,
  ids: Record<string, string>,
): Promise<Array<{ method: string; template: string; path: string }>> {
  const document = await requestJson(forja, 'GET', '/api/openapi.json');
  const routes: Array<{ method: string; template: string; path: string }> = [];
  for (const [template, operations] of Object.entries(
    document.body.paths as Record<string, object>,
  )) {
    const kind = template.split('/')[2]!;
    for (const method of Object.keys(operations)) {
      routes.push({
        method: method.toUpperCase(),
        template,
        path: template
          .replace('{id}', ids[kind] ?? randomUUID())
          .replace('{slug}', 'criativo')
          .replace('{username}', 'ana'),
      });
    }
  }
  return routes;
}

describe.each(testDatabaseEngines())('who gets in, on $name', (engine) => {
  describe('on loopback without accounts', () => {
    let forja: Forja;
    beforeAll(async () => {
      forja = await startTestForja(engine);
    });
    afterAll(() => forja.close());
    const count = async (table: string) =>
      (await forja.database.query<{ n: number }>(`select count(*)::int as n from ${table}`))
        .rows[0]!.n;

    it('refuses Host: evil.example (every request, the stream too) and a foreign Origin, with 403 naming the rule, storing nothing', async () => {
      const project = await requestJson(forja, 'POST', '/api/projects', { name: 'Mine' });
      const session = await requestJson(
        forja,
        'POST',
        `/api/projects/${project.body.id}/sessions`,
        {},
      );
      const [projects, events] = [await count('projects'), await count('session_events')];

      const rebound = await requestJson(forja, 'GET', '/api/projects', undefined, {
        host: 'evil.example',
      });
      expect(rebound).toMatchObject({
        status: 403,
        body: { error: { code: 'host_not_allowed', field: 'host' } },
      });
      expect(
        (await requestJson(forja, 'POST', '/api/projects', { name: 'x' }, { host: 'evil.example' }))
          .status,
      ).toBe(403);
      expect(
        (
          await forja.app.request(`/api/sessions/${session.body.id}/stream`, {
            headers: { host: 'evil.example' },
          })
        ).status,
      ).toBe(403);
      expect((await forja.app.request('/', { headers: { host: 'evil.example' } })).status).toBe(
        403,
      );

      const foreign = await requestJson(
        forja,
        'POST',
        `/api/sessions/${session.body.id}/messages`,
        { text: 'hi' },
        { host: '127.0.0.1:4321', origin: 'https://evil.example' },
      );
      expect(foreign).toMatchObject({
        status: 403,
        body: { error: { code: 'cross_site_request', field: 'origin' } },
      });
      const formPost = await requestJson(
        forja,
        'POST',
        `/api/sessions/${session.body.id}/end`,
        'x=1',
        { 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' },
      );
      expect(formPost).toMatchObject({ status: 403, body: { error: { field: 'sec-fetch-site' } } });
      expect([await count('projects'), await count('session_events')]).toEqual([projects, events]);

      expect(
        (await requestJson(forja, 'GET', '/api/projects', undefined, { host: 'localhost:4321' }))
          .status,
      ).toBe(200);
      const own = await requestJson(
        forja,
        'POST',
        `/api/sessions/${session.body.id}/messages`,
        { text: 'hi' },
        { host: '127.0.0.1:4321', origin: 'http://127.0.0.1:4321' },
      );
      expect(own).toMatchObject({ status: 201, body: { actor: 'user' } });
      expect(await requestJson(forja, 'GET', '/api/auth/me')).toMatchObject({
        status: 200,
        body: { accounts: false, person: null },
      });
    });
  });

  it('asks whether anyone has an account once, not per request, and requires one as soon as a person is created elsewhere', async () => {
    const loaded = loadConfig({});
    if (!loaded.ok) throw new Error(loaded.error.message);
    const database = await engine.open();
    let looks = 0;
    const counted: Database = {
      ...database,
      query: (sql, params) => {
        if (sql.includes('from people) as found')) looks += 1;
        return database.query(sql, params);
      },
    };
    const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
      env: {},
      database: counted,
    });
    try {
      for (let request = 0; request < 5; request += 1)
        expect((await requestJson(forja, 'GET', '/api/projects')).status).toBe(200);
      expect(looks).toBe(1);
      // Another process (the CLI's `forja user add`) creates the first person, on the same database.
      await createPerson(database, {
        username: 'ana',
        passwordHash: await hashPassword(PASSWORD),
      });
      let status = 200;
      for (let tries = 0; tries < 200 && status === 200; tries += 1) {
        status = (await requestJson(forja, 'GET', '/api/projects')).status;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(status).toBe(401);
      expect(looks).toBe(2);
    } finally {
      await forja.close();
      await database.close();
    }
  });

  describe('bound to 0.0.0.0 with accounts', () => {
    let forja: Forja;
    let config: ForjaConfig;
    let database: Database;
    let ana: Person;
    let bruno: Person;
    let anaToken: string;
    let brunoToken: string;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      const loaded = loadConfig({
        HOST: '0.0.0.0',
        PORT: '4321',
        FORJA_PUBLIC_URL: 'https://forja.example.com',
      });
      if (!loaded.ok) throw new Error(loaded.error.message);
      config = loaded.config;
      database = await engine.open();
      const passwordHash = await hashPassword(PASSWORD);
      ana = (await createPerson(database, { username: 'ana', passwordHash })).person;
      bruno = (await createPerson(database, { username: 'bruno', passwordHash })).person;
      forja = await createForja(loaded.config, pino({ level: 'silent' }), {
        env: {},
        database,
        signInLimiter: createSignInLimiter(signInFailuresIn(database), TEST_BACKOFF),
      });
      const tokenOf = async (person: Person) => {
        const { secret, hash } = newSecret(TOKEN_PREFIX);
        await insertApiToken(database, { personId: person.id, name: 'test', secretHash: hash });
        return secret;
      };
      [anaToken, brunoToken] = [await tokenOf(ana), await tokenOf(bruno)];

      const project = await as(anaToken, 'POST', '/api/projects', { name: "Ana's bakery" });
      const session = await as(anaToken, 'POST', `/api/projects/${project.body.id}/sessions`, {});
      ids['projects'] = project.body.id;
      ids['sessions'] = session.body.id;
      ids['handoffs'] = randomUUID();
      await insertHandoff(database, {
        id: ids['handoffs'],
        session_id: session.body.id,
        from_agent: 'criativo',
        to_agent: 'po',
        artifact_id: null,
        status: 'offered',
      });
      ids['actions'] = randomUUID();
      ids['hypotheses'] = randomUUID();
      const appended = await forja.eventLog.append(session.body.id, [
        {
          type: 'action.proposed',
          actor: 'tester',
          payload: {
            v: 1,
            action_id: ids['actions'],
            tool_call_id: 'call-1',
            agent: 'tester',
            tool: 'terminal',
            args: { command: 'npm test' },
          },
        },
        {
          type: 'hypothesis.proposed',
          actor: 'psicologo',
          payload: { v: 1, hypothesis_id: ids['hypotheses'], text: 'Prefers small steps' },
        },
      ]);
      expect(appended.success).toBe(true);
    });
    afterAll(async () => {
      await forja.close();
      await database.close();
    });

    function as(
      token: string | null,
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) {
      return requestJson(
        forja,
        method,
        path,
        body ?? (method === 'GET' ? undefined : {}),
        token === null ? headers : { authorization: `Bearer ${token}`, ...headers },
      );
    }
    const eventCount = async () =>
      (await database.query<{ n: number }>('select count(*)::int as n from session_events'))
        .rows[0]!.n;

    it('classifies every documented route: public, of the account, or of a project resource', async () => {
      for (const route of await documentedRoutes(forja, ids))
        expect([route.template, classifyPath(route.path).kind]).not.toEqual([
          route.template,
          'unclassified',
        ]);
    });

    it('answers 401 to every documented route and to the stream without credentials, or with a revoked token', async () => {
      const { secret, hash } = newSecret(TOKEN_PREFIX);
      const revoked = await insertApiToken(database, {
        personId: ana.id,
        name: 'old',
        secretHash: hash,
      });
      expect((await as(secret, 'GET', '/api/projects')).status).toBe(200);
      expect(await revokeApiToken(database, revoked.id)).toBe(true);
      const before = await eventCount();
      for (const route of await documentedRoutes(forja, ids)) {
        if (classifyPath(route.path).kind === 'public') continue;
        for (const credentials of [null, secret, 'forja_not-a-token']) {
          const answer = await as(credentials, route.method, route.path);
          expect([route.method, route.template, answer.status, answer.body?.error?.code]).toEqual([
            route.method,
            route.template,
            401,
            'unauthenticated',
          ]);
        }
      }
      const stream = await forja.app.request(`/api/sessions/${ids['sessions']}/stream`);
      expect(stream.status).toBe(401);
      expect(
        (
          await forja.app.request(`/api/sessions/${ids['sessions']}/stream`, {
            headers: { cookie: 'forja_session=fs_guess' },
          })
        ).status,
      ).toBe(401);
      expect(await eventCount()).toBe(before);
    });

    it("answers 404 to a member of another project on every route of this project's resources, and stores nothing", async () => {
      const before = await eventCount();
      let checked = 0;
      for (const route of await documentedRoutes(forja, ids)) {
        if (classifyPath(route.path).kind !== 'resource') continue;
        const answer = await as(brunoToken, route.method, route.path);
        expect([route.method, route.template, answer.status, answer.body?.error?.code]).toEqual([
          route.method,
          route.template,
          404,
          'not_found',
        ]);
        checked++;
      }
      expect(checked).toBeGreaterThan(30);
      const stream = await forja.app.request(`/api/sessions/${ids['sessions']}/stream`, {
        headers: { authorization: `Bearer ${brunoToken}` },
      });
      expect(stream.status).toBe(404);
      expect(await eventCount()).toBe(before);
      expect((await as(brunoToken, 'GET', '/api/projects')).body.projects).toEqual([]);
      const sessionId = ids['sessions']!;
      for (const disguised of [
        `/api/%73essions/${sessionId}`,
        `/api/sessions/${sessionId.slice(0, 8)}%2D${sessionId.slice(9)}`,
        `/api/sessions/${sessionId.toUpperCase()}/events`,
      ]) {
        expect([disguised, (await as(brunoToken, 'GET', disguised)).status]).not.toEqual([
          disguised,
          200,
        ]);
      }
      const unknown = await as(brunoToken, 'GET', `/api/sessions/${randomUUID()}`);
      expect(unknown.body.error.code).toBe('not_found');
    });

    it("records the person's id as the actor, and lists only the person's projects", async () => {
      const message = await as(anaToken, 'POST', `/api/sessions/${ids['sessions']}/messages`, {
        text: 'Bread at dawn',
      });
      expect(message).toMatchObject({ status: 201, body: { actor: ana.id } });
      const approved = await as(anaToken, 'POST', `/api/actions/${ids['actions']}/approve`);
      expect(approved.status).toBe(202);
      await forja.conversation.idle(ids['sessions']!);
      const events = (
        await as(anaToken, 'GET', `/api/sessions/${ids['sessions']}/events?limit=1000`)
      ).body.events as Array<{ type: string; actor: string }>;
      expect(events.find((event) => event.type === 'action.approved')?.actor).toBe(ana.id);
      expect(
        (await as(anaToken, 'GET', '/api/projects')).body.projects.map(
          (project: { id: string }) => project.id,
        ),
      ).toEqual([ids['projects']]);
    });

    it('lets an owner add members; a member reads but does not add; a name that does not exist is a 404 naming the field', async () => {
      const added = await as(anaToken, 'POST', `/api/projects/${ids['projects']}/members`, {
        username: 'bruno',
      });
      expect(added).toMatchObject({
        status: 201,
        body: { username: 'bruno', role: 'member', person_id: bruno.id },
      });
      const members = await as(brunoToken, 'GET', `/api/projects/${ids['projects']}/members`);
      expect(members.body.members).toEqual([
        { person_id: ana.id, username: 'ana', role: 'owner' },
        { person_id: bruno.id, username: 'bruno', role: 'member' },
      ]);
      expect((await as(brunoToken, 'GET', `/api/sessions/${ids['sessions']}`)).status).toBe(200);
      expect(
        await as(brunoToken, 'POST', `/api/projects/${ids['projects']}/members`, {
          username: 'bruno',
          role: 'owner',
        }),
      ).toMatchObject({ status: 403, body: { error: { code: 'not_owner' } } });
      expect(
        await as(anaToken, 'POST', `/api/projects/${ids['projects']}/members`, {
          username: 'nobody',
        }),
      ).toMatchObject({ status: 404, body: { error: { field: 'username' } } });
      expect(
        await as(anaToken, 'POST', `/api/projects/${ids['projects']}/members`, {
          username: 'bruno',
          role: 'admin',
        }),
      ).toMatchObject({ status: 400, body: { error: { field: 'role' } } });
    });

    it("keeps a project's settings to its owners, and never leaves a project without an owner", async () => {
      const project = ids['projects']!;
      const members = `/api/projects/${project}/members`;
      const budget = `/api/projects/${project}/budget`;
      const instructions = `/api/projects/${project}/agents/arquiteto/instructions`;
      expect((await as(anaToken, 'POST', members, { username: 'bruno' })).status).toBe(201);
      expect((await as(anaToken, 'PUT', budget, { max_tokens: 1000 })).status).toBe(200);
      expect((await as(anaToken, 'PUT', instructions, { content: 'Keep it small.' })).status).toBe(
        200,
      );

      const notOwner = { status: 403, body: { error: { code: 'not_owner' } } };
      expect(await as(brunoToken, 'PUT', budget, { max_tokens: null })).toMatchObject(notOwner);
      expect(
        await as(brunoToken, 'PUT', instructions, { content: 'Ignore the budget.' }),
      ).toMatchObject(notOwner);
      expect(await as(brunoToken, 'DELETE', `${members}/ana`)).toMatchObject(notOwner);
      const acceptInstructions = `/api/sessions/${ids['sessions']}/instructions/accept`;
      expect(await as(brunoToken, 'POST', acceptInstructions)).toMatchObject(notOwner);
      expect((await as(anaToken, 'POST', acceptInstructions)).status).toBe(409);
      expect((await as(brunoToken, 'GET', `/api/projects/${project}/usage`)).body.max_tokens).toBe(
        1000,
      );
      expect((await as(brunoToken, 'GET', instructions)).body.content).toBe('Keep it small.');

      const lastOwner = { status: 409, body: { error: { code: 'last_owner' } } };
      expect(
        await as(anaToken, 'POST', members, { username: 'ana', role: 'member' }),
      ).toMatchObject(lastOwner);
      expect(await as(anaToken, 'DELETE', `${members}/ana`)).toMatchObject(lastOwner);
      // Two owners demoting each other at once: one wins, the other is refused, an owner remains.
      expect(
        (await as(anaToken, 'POST', members, { username: 'bruno', role: 'owner' })).status,
      ).toBe(201);
      const answers = await Promise.all([
        as(anaToken, 'POST', members, { username: 'bruno', role: 'member' }),
        as(brunoToken, 'POST', members, { username: 'ana', role: 'member' }),
      ]);
      // The loser is refused in its transaction (409), or already as a member (403) when the winner came first.
      const [won, lost] = answers.map((answer) => answer.status).sort();
      expect([won, [403, 409].includes(lost!)]).toEqual([201, true]);
      const owners = (await as(anaToken, 'GET', members)).body.members.filter(
        (member: { role: string }) => member.role === 'owner',
      );
      expect(owners).toHaveLength(1);
      // Put things back: ana the only owner, bruno a member who may leave and be added again.
      await as(owners[0].username === 'ana' ? anaToken : brunoToken, 'POST', members, {
        username: 'ana',
        role: 'owner',
      });
      expect(
        (await as(anaToken, 'POST', members, { username: 'bruno', role: 'member' })).status,
      ).toBe(201);
      expect((await as(brunoToken, 'DELETE', `${members}/bruno`)).status).toBe(204);
      expect((await as(brunoToken, 'GET', members)).status).toBe(404);
      expect(await as(anaToken, 'DELETE', `${members}/bruno`)).toMatchObject({
        status: 404,
        body: { error: { field: 'username' } },
      });
      expect((await as(anaToken, 'POST', members, { username: 'bruno' })).status).toBe(201);
    });

    it('signs in with a password into an HttpOnly SameSite cookie, signs out, and limits failed attempts', async () => {
      const signIn = (username: string, password: string) =>
        requestJson(forja, 'POST', '/api/auth/sign-in', { username, password });
      expect((await signIn('ana', 'wrong password!')).status).toBe(401);
      // A NUL in a password is bad input (a 400 naming the field), not a wrong password.
      expect(await signIn('ana', 'a\u0000b')).toMatchObject({
        status: 400,
        body: { error: { field: 'password' } },
      });
      const signedIn = await signIn('ana', PASSWORD);
      expect(signedIn).toMatchObject({ status: 200, body: { id: ana.id, username: 'ana' } });
      const setCookie = signedIn.headers.get('set-cookie')!;
      expect(setCookie).toMatch(/^forja_session=fs_[\w-]{43};/);
      expect(setCookie).toContain('HttpOnly');
      expect(setCookie).toContain('SameSite=Lax');
      const cookie = setCookie.split(';')[0]!;
      expect(await requestJson(forja, 'GET', '/api/auth/me', undefined, { cookie })).toMatchObject({
        status: 200,
        body: { accounts: true, person: { id: ana.id } },
      });
      const stored = await database.query<{ secret_hash: string }>(
        'select secret_hash from auth_sessions',
      );
      expect(stored.rows.map((row) => row.secret_hash)).not.toContain(cookie.split('=')[1]);
      expect(
        (await requestJson(forja, 'POST', '/api/auth/sign-out', undefined, { cookie })).status,
      ).toBe(204);
      expect((await requestJson(forja, 'GET', '/api/auth/me', undefined, { cookie })).status).toBe(
        401,
      );

      for (let attempt = 0; attempt < 3; attempt++)
        expect((await signIn('bruno', `wrong ${attempt} password`)).status).toBe(401);
      const limited = await signIn('bruno', PASSWORD);
      expect(limited).toMatchObject({
        status: 429,
        body: { error: { code: 'too_many_attempts' } },
      });
      expect(limited.headers.get('retry-after')).toBe('60');
      expect((await signIn('nobody', PASSWORD)).status).toBe(401);
    });

    it('slows wrong passwords from one address without locking the owner out elsewhere; every process counts them', async () => {
      const signInFrom = (target: Forja, address: string, password: string) =>
        target.app.request(
          '/api/auth/sign-in',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: 'ana', password }),
          },
          { incoming: { socket: { remoteAddress: address } } },
        );
      for (let attempt = 0; attempt < 3; attempt++)
        expect((await signInFrom(forja, '203.0.113.1', `guess ${attempt}`)).status).toBe(401);
      const slowed = await signInFrom(forja, '203.0.113.1', PASSWORD);
      expect(slowed.status).toBe(429);
      expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await slowed.json()) as { error: { code: string } }).error.code).toBe(
        'too_many_attempts',
      );
      // The owner, from another address, signs in at once: no account is locked.
      expect((await signInFrom(forja, '198.51.100.7', PASSWORD)).status).toBe(200);

      // A second process on the same database, with its own limiter, sees the same failures.
      const other = await createForja(config, pino({ level: 'silent' }), {
        env: {},
        database,
        signInLimiter: createSignInLimiter(signInFailuresIn(database)),
      });
      try {
        const elsewhere = await signInFrom(other, '203.0.113.1', PASSWORD);
        expect(elsewhere.status).toBe(429);
        expect(Number(elsewhere.headers.get('retry-after'))).toBeGreaterThan(0);
        expect((await signInFrom(other, '198.51.100.7', PASSWORD)).status).toBe(200);
      } finally {
        await other.close();
      }
    });

    it('lets in the public name and IP addresses on the port, not another DNS name', async () => {
      expect(
        (await as(anaToken, 'GET', '/api/projects', undefined, { host: 'forja.example.com' }))
          .status,
      ).toBe(200);
      expect(
        (await as(anaToken, 'GET', '/api/projects', undefined, { host: '10.1.2.3:4321' })).status,
      ).toBe(200);
      expect(
        (await as(anaToken, 'GET', '/api/projects', undefined, { host: 'rebound.example:4321' }))
          .status,
      ).toBe(403);
    });
  });
});
