import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelProbe } from './create-model-probe.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

/** A model server that answers every request with `status`, recording what it was sent. */
async function modelServer(status: number): Promise<{
  url: string;
  requests: Array<{ method: string; url: string; headers: IncomingHttpHeaders }>;
}> {
  const requests: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((request, response) => {
    requests.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
    });
    response.writeHead(status, { 'content-type': 'application/json' }).end('{"data":[]}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** A port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('createModelProbe', () => {
  it('has nothing to look at without a model, or with a scripted one', () => {
    expect(createModelProbe({})).toBeNull();
    expect(createModelProbe({ FORJA_MODEL: 'scripted:examples/criativo-demo.json' })).toBeNull();
  });

  it('GETs the OpenAI-compatible model list with the key: no tokens spent', async () => {
    const server = await modelServer(200);
    const probe = createModelProbe({
      FORJA_MODEL: 'openai:llama3.1',
      OPENAI_BASE_URL: `${server.url}/v1/`,
      OPENAI_API_KEY: 'sk-local-1',
    })!;
    expect(probe.target).toBe(`${server.url}/v1/models`);
    expect(await probe.check()).toEqual({ reachable: true, reason: null });
    expect(server.requests).toEqual([
      {
        method: 'GET',
        url: '/v1/models',
        headers: expect.objectContaining({ authorization: 'Bearer sk-local-1' }),
      },
    ]);
  });

  it("GETs Anthropic's model list with its key and version headers", async () => {
    const server = await modelServer(200);
    const probe = createModelProbe({
      FORJA_MODEL: 'anthropic:claude-sonnet-4-5',
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'sk-ant-2',
    })!;
    expect(await probe.check()).toEqual({ reachable: true, reason: null });
    expect(server.requests[0]).toMatchObject({
      url: '/v1/models',
      headers: { 'x-api-key': 'sk-ant-2', 'anthropic-version': expect.any(String) },
    });
  });

  it('says which endpoint does not answer and why, without the key', async () => {
    const port = await closedPort();
    const probe = createModelProbe({
      FORJA_MODEL: 'openai:m',
      OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
      OPENAI_API_KEY: 'sk-never-shown',
    })!;
    const result = await probe.check();
    expect(result).toEqual({
      reachable: false,
      reason: `http://127.0.0.1:${port}/v1/models does not answer (ECONNREFUSED)`,
    });
  });

  it('counts a refused key as not usable, naming the variable, and any other answer as up', async () => {
    const refusing = await modelServer(401);
    const refused = await createModelProbe({
      FORJA_MODEL: 'openai:m',
      OPENAI_BASE_URL: refusing.url,
      OPENAI_API_KEY: 'sk-wrong-key',
    })!.check();
    expect(refused).toEqual({
      reachable: false,
      reason: `${refusing.url}/models refused the key (HTTP 401): check OPENAI_API_KEY`,
    });
    expect(JSON.stringify(refused)).not.toContain('sk-wrong-key');
    // llama.cpp's server and others may not list models: the server still answers, so turns can run.
    const listless = await modelServer(404);
    expect(
      await createModelProbe({ FORJA_MODEL: 'openai:m', OPENAI_BASE_URL: listless.url })!.check(),
    ).toEqual({ reachable: true, reason: `${listless.url}/models answered HTTP 404` });
  });

  it('gives up on a server that accepts the connection but never answers', async () => {
    const server = createServer(() => undefined);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await createModelProbe(
      { FORJA_MODEL: 'openai:m', OPENAI_BASE_URL: url },
      { timeoutMs: 200 },
    )!.check();
    expect(result).toEqual({
      reachable: false,
      reason: `${url}/models does not answer (no answer within 0.2 s)`,
    });
    server.closeAllConnections();
  });

  it('never shows credentials written into the base URL', () => {
    const probe = createModelProbe({
      FORJA_MODEL: 'openai:m',
      OPENAI_BASE_URL: 'http://user:hunter2@127.0.0.1:9/v1?token=abc',
    })!;
    expect(probe.target).not.toMatch(/hunter2|token|abc/);
  });
});
