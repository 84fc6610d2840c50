import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../accounts/passwords.ts';
import { newSecret, TOKEN_PREFIX } from '../../accounts/secrets.ts';
import { createForja, type Forja } from '../../composition.ts';
import { LINE_MESSAGES } from '../../conversation/testing/play-up-to-the-devs.ts';
import { BRIEF, UP_TO_ARQUITETO } from '../../conversation/testing/production-line-script.ts';
import { startLine } from '../../conversation/testing/start-line.ts';
import { loadConfig } from '../../config/config.ts';
import { createPerson, insertApiToken, type Database, type Person } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson } from '../../testing/forja-harness.ts';
import { newSessionThroughApi } from '../../testing/scripted-forja.ts';
import { listen, type ListeningServer } from '../listen.ts';

/** A client of the SDK's own, connected (initialized) over Streamable HTTP to `url`. */
async function connectClient(
  url: string,
  options: { headers?: Record<string, string>; fetch?: typeof fetch } = {},
): Promise<Client> {
  const client = new Client({ name: 'forja-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: options.headers ?? {} },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  await client.connect(transport);
  return client;
}

/** Calls a tool; its answer as data (the JSON text), or its refusal's text. */
async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return result.isError === true
    ? { refused: text }
    : { ok: JSON.parse(text) as Record<string, any> };
}

describe.each(testDatabaseEngines())('Forja as an MCP server on $name', (engine) => {
  describe('on loopback without accounts, listening', () => {
    let line: Awaited<ReturnType<typeof startLine>>;
    let forja: Forja;
    let server: ListeningServer;
    let client: Client;
    beforeAll(async () => {
      line = await startLine(engine, { turns: UP_TO_ARQUITETO });
      forja = line.forja;
      server = await listen(forja.app.fetch, { host: '127.0.0.1', port: 0 });
      client = await connectClient(`${server.url}/mcp`);
    });
    afterAll(async () => {
      await client.close();
      await server.close();
      await line.close();
    });

    it('initializes and lists its tools, each with its input schema', async () => {
      expect(client.getServerVersion()?.name).toBe('forja');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'accept_handoff',
        'answer_question',
        'approve_action',
        'deny_action',
        'list_projects',
        'list_sessions',
        'list_waiting',
        'read_session',
        'reject_handoff',
        'send_message',
      ]);
      const send = tools.find((tool) => tool.name === 'send_message')!;
      expect(send.inputSchema.required).toEqual(expect.arrayContaining(['text', 'session_id']));
    });

    it('reads a session and accepts the handoff the line offered, as the person', async () => {
      const project = (await requestJson(forja, 'POST', '/api/projects', { name: 'Padaria' })).body;
      const session = (
        await requestJson(forja, 'POST', `/api/projects/${project.id}/sessions`, { title: 'Ideia' })
      ).body;
      expect((await call(client, 'list_projects', {})).ok?.projects).toEqual([
        expect.objectContaining({ id: project.id, name: 'Padaria' }),
      ]);
      expect(
        (await call(client, 'list_sessions', { project_id: project.id })).ok?.sessions,
      ).toEqual([expect.objectContaining({ id: session.id })]);
      await requestJson(forja, 'POST', `/api/sessions/${session.id}/agents/criativo/start`);
      for (const text of LINE_MESSAGES) {
        expect((await call(client, 'send_message', { session_id: session.id, text })).ok).toEqual({
          event: expect.objectContaining({ type: 'chat.message' }),
        });
        await forja.conversation.idle(session.id);
      }
      await requestJson(forja, 'POST', `/api/sessions/${session.id}/readiness?wait=true`);

      const waiting = (await call(client, 'list_waiting', { session_id: session.id })).ok!;
      expect(waiting.handoffs).toEqual([
        expect.objectContaining({ from_agent: 'criativo', to_agent: 'po', status: 'offered' }),
      ]);
      const accepted = await call(client, 'accept_handoff', { handoff_id: waiting.handoffs[0].id });
      expect(accepted.ok?.handoff).toEqual(expect.objectContaining({ status: 'accepted' }));
      await forja.conversation.idle(session.id);

      const read = (await call(client, 'read_session', { session_id: session.id })).ok!;
      expect(read.session).toEqual(
        expect.objectContaining({ id: session.id, project_id: project.id }),
      );
      expect(read.state.product_brief).not.toBeNull();
      expect(read.state.handoffs).toEqual([
        expect.objectContaining({ to_agent: 'po', status: 'completed' }),
        expect.objectContaining({ from_agent: 'po', to_agent: 'arquiteto', status: 'offered' }),
      ]);
      expect(read.backlog).toEqual(
        (await requestJson(forja, 'GET', `/api/projects/${project.id}/backlog`)).body,
      );
      expect(read.line).toEqual(
        (await requestJson(forja, 'GET', `/api/sessions/${session.id}/line`)).body,
      );
      // Accepting it twice is the use case's refusal, as the API's 409.
      expect(
        (await call(client, 'accept_handoff', { handoff_id: waiting.handoffs[0].id })).refused,
      ).toMatch(/^invalid_transition: /);
    });

    it('refuses bad arguments naming the field and the rule, and stores nothing', async () => {
      const project = (await requestJson(forja, 'POST', '/api/projects', { name: 'p' })).body;
      const session = (await requestJson(forja, 'POST', `/api/projects/${project.id}/sessions`, {}))
        .body;
      const before = await forja.eventLog.read(session.id, { limit: 1000 });
      const refusals = [
        await call(client, 'send_message', { session_id: session.id, text: '   ' }),
        await call(client, 'send_message', { session_id: 'nope', text: 'oi' }),
        await call(client, 'send_message', { session_id: session.id, text: 'oi', extra: 1 }),
        await call(client, 'read_session', { session_id: session.id, module: '../x' }),
        await call(client, 'reject_handoff', { handoff_id: crypto.randomUUID(), reason: '' }),
      ].map((outcome) => outcome.refused);
      expect(refusals[0]).toMatch(/must not be empty at text/);
      expect(refusals[1]).toMatch(/must be a UUID at session_id/);
      expect(refusals[2]).toMatch(/extra/);
      expect(refusals[3]).toMatch(/must be a module name .* at module/);
      expect(refusals[4]).toMatch(/must not be empty at reason/);
      expect(
        (await call(client, 'accept_handoff', { handoff_id: crypto.randomUUID() })).refused,
      ).toMatch(/^not_found: handoff_id: no handoff with id /);
      expect(await forja.eventLog.read(session.id, { limit: 1000 })).toEqual(before);
    });

    it('answers any arguments with a result or a tool error, never a failure, and stores nothing when refused', async () => {
      const project = (await requestJson(forja, 'POST', '/api/projects', { name: 'p' })).body;
      const session = (await requestJson(forja, 'POST', `/api/projects/${project.id}/sessions`, {}))
        .body;
      const { tools } = await client.listTools();
      const before = await forja.eventLog.read(session.id, { limit: 1000 });
      const notText = fc.jsonValue().filter((value) => typeof value !== 'string');
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(
            ...tools.map((tool) => tool.name).filter((name) => !name.startsWith('list')),
          ),
          fc.oneof(
            fc.dictionary(fc.string(), fc.jsonValue()),
            fc.record({ session_id: fc.constant(session.id), text: notText, answer: notText }),
          ),
          async (name, args) => {
            const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
            expect([name, result.isError]).toEqual([name, true]);
          },
        ),
        { numRuns: 40 },
      );
      expect(await forja.eventLog.read(session.id, { limit: 1000 })).toEqual(before);
    });

    it('refuses a body over the API limit (413) before reading it', async () => {
      const response = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        // The server answers before reading the body and drops the connection: not one to reuse.
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          connection: 'close',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'ping',
          params: { pad: 'x'.repeat(2 ** 21) },
        }),
      });
      const body = (await response.json()) as { error: { code: string } };
      expect([response.status, body.error.code]).toEqual([413, 'body_too_large']);
    });

    it('answers a GET or DELETE with 405: the server keeps no sessions', async () => {
      for (const method of ['GET', 'DELETE']) {
        const response = await fetch(`${server.url}/mcp`, { method });
        expect([method, response.status, response.headers.get('allow')]).toEqual([
          method,
          405,
          'POST',
        ]);
      }
    });
  });

  describe('an agent asks the person, who answers from an MCP client', () => {
    const PRICE = 'Qual o preço da assinatura?';
    const turns = [
      { agent: 'criativo', text: 'Que ideia boa!' },
      { agent: 'criativo', text: JSON.stringify(BRIEF) },
      {
        agent: 'po',
        text: 'Uma pergunta para a pessoa.',
        tool_calls: [{ name: 'ask_person', arguments: { question: PRICE } }],
      },
      {
        agent: 'po',
        // The answer given through the tool reaches the PO's next request.
        expect: { messages: [`tool: The person answered "${PRICE}": R$ 30 por mês`] },
        text: 'Anotado.',
      },
    ];
    let line: Awaited<ReturnType<typeof startLine>>;
    let server: ListeningServer;
    let client: Client;
    beforeAll(async () => {
      line = await startLine(engine, { turns });
      server = await listen(line.forja.app.fetch, { host: '127.0.0.1', port: 0 });
      client = await connectClient(`${server.url}/mcp`);
    });
    afterAll(async () => {
      await client.close();
      await server.close();
      await line.close();
    });

    it('lists the question as waiting, answers it, and the PO goes on with the answer', async () => {
      const { forja } = line;
      const { sessionId } = await newSessionThroughApi(forja);
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
      await call(client, 'send_message', { session_id: sessionId, text: 'Pão de madrugada.' });
      await forja.conversation.idle(sessionId);
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/readiness?wait=true`);
      const offered = (await call(client, 'list_waiting', { session_id: sessionId })).ok!;
      await call(client, 'accept_handoff', { handoff_id: offered.handoffs[0].id });
      await forja.conversation.idle(sessionId);

      const waiting = (await call(client, 'list_waiting', { session_id: sessionId })).ok!;
      expect(waiting.questions).toEqual([
        expect.objectContaining({ agent: 'po', question: PRICE, status: 'asked' }),
      ]);
      const questionId = waiting.questions[0].question_id;
      expect(
        (await call(client, 'answer_question', { session_id: sessionId, question_id: questionId }))
          .refused,
      ).toMatch(/must not be empty: give an answer, or decide_yourself: true at answer/);
      expect(
        await call(client, 'answer_question', {
          session_id: sessionId,
          question_id: questionId,
          answer: 'R$ 30 por mês',
        }),
      ).toEqual({ ok: { question_id: questionId, agent: 'po' } });
      await forja.conversation.idle(sessionId);
      line.provider.assertAllTurnsConsumed();
      // A script's `expect` that the request misses fails the turn: the PO's answer proves it was met.
      const events = await forja.eventLog.read(sessionId, { limit: 1000 });
      expect(events.filter((event) => event.type === 'turn.failed')).toEqual([]);
      expect(events.map((event) => (event.payload as { text?: string }).text)).toContain(
        'Anotado.',
      );
      expect((await call(client, 'list_waiting', { session_id: sessionId })).ok?.questions).toEqual(
        [],
      );
    });
  });

  describe('bound to 0.0.0.0 with accounts', () => {
    let forja: Forja;
    let database: Database;
    let ana: Person;
    const tokens: Record<string, string> = {};
    /** The client's requests go to the app in-process, as from another machine to `forja.example.com`. */
    const inProcess = ((url: string | URL, init?: RequestInit) =>
      forja.app.request(new URL(url).pathname, init)) as typeof fetch;
    const URL_ = 'https://forja.example.com/mcp';

    beforeAll(async () => {
      const loaded = loadConfig({
        HOST: '0.0.0.0',
        PORT: '4321',
        FORJA_PUBLIC_URL: 'https://forja.example.com',
      });
      if (!loaded.ok) throw new Error(loaded.error.message);
      database = await engine.open();
      const passwordHash = await hashPassword('a long enough password');
      ana = (await createPerson(database, { username: 'ana', passwordHash })).person;
      const bruno = (await createPerson(database, { username: 'bruno', passwordHash })).person;
      forja = await createForja(loaded.config, pino({ level: 'silent' }), { env: {}, database });
      for (const person of [ana, bruno]) {
        const { secret, hash } = newSecret(TOKEN_PREFIX);
        await insertApiToken(database, { personId: person.id, name: 'mcp', secretHash: hash });
        tokens[person.username] = secret;
      }
    });
    afterAll(async () => {
      await forja.close();
      await database.close();
    });

    it('refuses a client without a token or with a wrong one (401), before any tool', async () => {
      const unauthenticated = { code: 401, message: expect.stringMatching(/"unauthenticated"/) };
      await expect(connectClient(URL_, { fetch: inProcess })).rejects.toMatchObject(
        unauthenticated,
      );
      await expect(
        connectClient(URL_, { fetch: inProcess, headers: { authorization: 'Bearer forja_wrong' } }),
      ).rejects.toMatchObject(unauthenticated);
    });

    it("serves a member with a token, and answers another project's ids as not found", async () => {
      const as = (person: string) => ({ authorization: `Bearer ${tokens[person]}` });
      const project = await requestJson(forja, 'POST', '/api/projects', { name: 'Ana' }, as('ana'));
      const session = await requestJson(
        forja,
        'POST',
        `/api/projects/${project.body.id}/sessions`,
        {},
        as('ana'),
      );
      const anaClient = await connectClient(URL_, { fetch: inProcess, headers: as('ana') });
      const brunoClient = await connectClient(URL_, { fetch: inProcess, headers: as('bruno') });
      expect((await call(anaClient, 'list_projects', {})).ok?.projects).toHaveLength(1);
      expect((await call(brunoClient, 'list_projects', {})).ok?.projects).toEqual([]);
      expect(
        (await call(anaClient, 'read_session', { session_id: session.body.id })).ok?.session.id,
      ).toBe(session.body.id);
      for (const [tool, args] of [
        ['read_session', { session_id: session.body.id }],
        ['list_sessions', { project_id: project.body.id }],
        ['send_message', { session_id: session.body.id, text: 'oi' }],
      ] as const)
        expect((await call(brunoClient, tool, args)).refused).toMatch(/^not_found: /);
      await anaClient.close();
      await brunoClient.close();
    });
  });
});
