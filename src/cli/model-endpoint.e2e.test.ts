import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const FORJA_BIN = new URL('../../bin/forja.ts', import.meta.url).pathname;

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A port nothing listens on yet (taken, then freed), where the "local model server" starts later. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type Health = {
  model: {
    configured: boolean;
    provider: string;
    model: string;
    target: string;
    reachable: boolean | null;
    checked_at: string | null;
    reason: string | null;
  };
};

describe('forja serve with a model endpoint that is not up yet', { timeout: 120_000 }, () => {
  it('starts anyway, says so in the log and in /api/health, and sees the endpoint once it is up', async () => {
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, [FORJA_BIN, 'serve'], {
      env: {
        ...process.env,
        PORT: '0',
        FORJA_DATA_DIR: mkdtempSync(join(tmpdir(), 'forja-model-')),
        DATABASE_URL: '',
        FORJA_MODEL: 'openai:llama3.1',
        OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
        OPENAI_API_KEY: '',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    cleanups.push(() => child.kill('SIGKILL'));
    let output = '';
    const waiting = new Set<() => void>();
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      for (const look of waiting) look();
    });
    /** Resolves once the log holds a line matching `pattern`. */
    const logged = (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const look = () => {
          const match = pattern.exec(output);
          if (match) {
            waiting.delete(look);
            resolve(match);
          }
        };
        waiting.add(look);
        child.once('exit', (code) =>
          reject(new Error(`forja serve exited with ${code}:\n${output}`)),
        );
        look();
      });
    const url = (await logged(/"url":"(http:[^"]+)"/))[1]!;
    await logged(
      /the model endpoint is not reachable \(http:\/\/127\.0\.0\.1:\d+\/v1\/models does not answer \(ECONNREFUSED\)\)/,
    );

    const down = (await (await fetch(`${url}/api/health`)).json()) as Health;
    expect(down.model).toMatchObject({
      configured: true,
      provider: 'openai',
      model: 'llama3.1',
      target: `http://127.0.0.1:${port}/v1/models`,
      reachable: false,
      reason: expect.stringContaining('ECONNREFUSED'),
    });
    expect(Date.parse(down.model.checked_at!)).not.toBeNaN();

    // The local model server starts after Forja.
    const requests: string[] = [];
    const modelServer: Server = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"object":"list","data":[{"id":"llama3.1"}]}');
    });
    await new Promise<void>((resolve) => modelServer.listen(port, '127.0.0.1', resolve));
    cleanups.push(() => modelServer.close());

    // Looking on demand may find the last look too recent (once per 5 s); the answer then comes from a later one.
    let up = (await (await fetch(`${url}/api/health?check=model`)).json()) as Health;
    while (up.model.reachable !== true) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      up = (await (await fetch(`${url}/api/health?check=model`)).json()) as Health;
    }
    expect(up.model).toMatchObject({ reachable: true, reason: null });
    // The model list, and Ollama's /api/show (which says a model's window; this server is not Ollama): no tokens.
    expect(new Set(requests)).toEqual(new Set(['GET /v1/models', 'POST /api/show']));
    await logged(/the model endpoint answers again/);
    expect((await fetch(`${url}/api/health?check=everything`)).status).toBe(400);

    child.kill('SIGTERM');
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
  });
});
