import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startAnthropicModelServer,
  startOllamaTestServer,
  startVllmTestServer,
} from '../testing/start-model-servers.ts';
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
    expect(await probe.check()).toEqual({ reachable: true, reason: null, window: null });
    expect(server.requests[0]).toEqual({
      method: 'GET',
      url: '/v1/models',
      headers: expect.objectContaining({ authorization: 'Bearer sk-local-1' }),
    });
    // At a /v1 base it also asks whether the server is Ollama (which says the model's window); this one is not.
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /v1/models',
      'POST /api/show',
    ]);
  });

  it("GETs Anthropic's model list with its key and version headers", async () => {
    const server = await modelServer(200);
    const probe = createModelProbe({
      FORJA_MODEL: 'anthropic:claude-sonnet-4-5',
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'sk-ant-2',
    })!;
    expect(await probe.check()).toEqual({ reachable: true, reason: null, window: null });
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
      window: null,
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
      window: null,
    });
    expect(JSON.stringify(refused)).not.toContain('sk-wrong-key');
    // llama.cpp's server and others may not list models: the server still answers, so turns can run.
    const listless = await modelServer(404);
    expect(
      await createModelProbe({ FORJA_MODEL: 'openai:m', OPENAI_BASE_URL: listless.url })!.check(),
    ).toEqual({
      reachable: true,
      reason: `${listless.url}/models answered HTTP 404`,
      window: null,
    });
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
      window: null,
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

describe("createEndpointProbe against the model servers' own answers", () => {
  const closing: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(closing.splice(0).map((server) => server.close()));
  });

  it("reads an Ollama model's num_ctx from /api/show and says it is below the model's length", async () => {
    const ollama = await startOllamaTestServer({
      models: [{ name: 'qwen2.5:7b', numCtx: 8192, contextLength: 32768 }],
    });
    closing.push(ollama);
    const probe = createModelProbe({
      FORJA_MODEL: 'openai:qwen2.5:7b',
      OPENAI_BASE_URL: ollama.baseUrl,
    })!;
    const result = await probe.check();
    expect(result).toMatchObject({
      reachable: true,
      reason: null,
      window: { tokens: 8192, from: 'Ollama num_ctx', truncatesAt: 8192 },
    });
    expect(result.window?.note).toContain('num_ctx 8192 though the model takes 32768');
    expect(ollama.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /v1/models',
      'POST /api/show',
      'GET /api/ps',
    ]);
    expect(ollama.requests[1]?.body).toEqual({ model: 'qwen2.5:7b' });
  });

  it('takes the running context from /api/ps when the parameters do not say, and the assumed default when nothing does', async () => {
    const ollama = await startOllamaTestServer({
      models: [
        { name: 'llama3.2:3b', contextLength: 131072, runningContext: 16384 },
        { name: 'phi4', contextLength: 16384 },
      ],
    });
    closing.push(ollama);
    const window = async (model: string) =>
      (
        await createModelProbe({
          FORJA_MODEL: `openai:${model}`,
          OPENAI_BASE_URL: ollama.baseUrl,
        })!.check()
      ).window;
    expect(await window('llama3.2:3b')).toMatchObject({
      tokens: 16384,
      from: 'Ollama num_ctx of the running model',
    });
    expect(await window('phi4')).toMatchObject({
      tokens: 4096,
      from: "Ollama's default num_ctx (assumed)",
      note: expect.stringContaining('Ollama does not say which num_ctx it runs phi4 with'),
    });
  });

  it('says when Ollama has no such model, and when the model takes no tools', async () => {
    const ollama = await startOllamaTestServer({
      models: [{ name: 'gemma:2b', numCtx: 8192, capabilities: ['completion'] }],
    });
    closing.push(ollama);
    expect(
      await createModelProbe({
        FORJA_MODEL: 'openai:qwen3',
        OPENAI_BASE_URL: ollama.baseUrl,
      })!.check(),
    ).toEqual({
      reachable: false,
      reason: `Ollama at ${ollama.url} has no model qwen3 (pull it with: ollama pull qwen3)`,
      window: null,
    });
    expect(
      await createModelProbe({
        FORJA_MODEL: 'openai:gemma:2b',
        OPENAI_BASE_URL: ollama.baseUrl,
      })!.check(),
    ).toMatchObject({
      reachable: true,
      reason: "Ollama says gemma:2b does not support tools: the agents' tool calls will be refused",
      window: { tokens: 8192 },
    });
  });

  it("reads vLLM's max_model_len from its model list; that server refuses rather than cuts", async () => {
    const vllm = await startVllmTestServer({
      models: [{ id: 'Qwen/Qwen2.5-Coder-7B-Instruct', maxModelLen: 16384 }],
    });
    closing.push(vllm);
    const result = await createModelProbe({
      FORJA_MODEL: 'openai:Qwen/Qwen2.5-Coder-7B-Instruct',
      OPENAI_BASE_URL: vllm.baseUrl,
    })!.check();
    expect(result).toEqual({
      reachable: true,
      reason: null,
      window: { tokens: 16384, from: 'vLLM max_model_len', truncatesAt: null, note: null },
    });
    expect(
      (
        await createModelProbe({
          FORJA_MODEL: 'openai:other',
          OPENAI_BASE_URL: vllm.baseUrl,
        })!.check()
      ).reason,
    ).toBe(
      `${vllm.baseUrl}/models does not list the model other; the server may still answer to it`,
    );
  });

  it('asks an Anthropic-style server its model list and gets no window from it', async () => {
    const anthropic = await startAnthropicModelServer({
      models: [{ id: 'claude-sonnet-4-5', contextWindow: 200_000 }],
    });
    closing.push(anthropic);
    expect(
      await createModelProbe({
        FORJA_MODEL: 'anthropic:claude-sonnet-4-5',
        ANTHROPIC_BASE_URL: anthropic.baseUrl,
        ANTHROPIC_API_KEY: 'sk-ant-1',
      })!.check(),
    ).toEqual({ reachable: true, reason: null, window: null });
  });
});
