import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const FORJA_BIN = new URL('../../bin/forja.ts', import.meta.url).pathname;
const started: ChildProcess[] = [];

function forja(
  args: string[],
  env: Record<string, string>,
  stdin = '',
): { child: ChildProcess; exited: Promise<number | null>; stderr: () => string } {
  const child = spawn(process.execPath, [FORJA_BIN, ...args], {
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'info', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  started.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin!.end(stdin);
  return {
    child,
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    stderr: () => stderr,
  };
}

function listening(run: ReturnType<typeof forja>): Promise<number> {
  return new Promise((resolve, reject) => {
    run.child.stderr!.on('data', () => {
      const match = /"url":"http:[^"]+:(\d+)"/.exec(run.stderr());
      if (match) resolve(Number(match[1]));
    });
    void run.exited.then((code) =>
      reject(new Error(`forja serve exited with ${code}:\n${run.stderr()}`)),
    );
  });
}

/** A raw HTTP request, so the test chooses the Host header as a browser on another name would send it. */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, method, path, headers, setHost: false },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () =>
          resolve({ status: response.statusCode!, body: text, headers: response.headers }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('forja serve: the Host and Origin rule and accounts, over real HTTP', {
  timeout: 120_000,
}, () => {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-serve-access-'));
  afterAll(() => {
    for (const child of started.splice(0)) child.kill('SIGKILL');
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('on loopback: refuses another Host and a foreign Origin; curl-like requests work', async () => {
    const server = forja(['serve'], { PORT: '0', FORJA_DATA_DIR: dataDirectory });
    const port = await listening(server);
    const own = { host: `127.0.0.1:${port}`, 'content-type': 'application/json' };
    expect(await send(port, 'GET', '/api/projects', { host: 'evil.example' })).toMatchObject({
      status: 403,
      body: expect.stringContaining('host_not_allowed'),
    });
    expect(await send(port, 'GET', '/', { host: `evil.example:${port}` })).toMatchObject({
      status: 403,
    });
    expect(
      await send(
        port,
        'POST',
        '/api/projects',
        { ...own, origin: 'https://evil.example' },
        '{"name":"x"}',
      ),
    ).toMatchObject({ status: 403, body: expect.stringContaining('"field":"origin"') });
    expect(
      await send(
        port,
        'POST',
        '/api/projects',
        { ...own, origin: `http://localhost:${port}` },
        '{"name":"Mine"}',
      ),
    ).toMatchObject({ status: 201 });
    expect(await send(port, 'POST', '/api/projects', own, '{"name":"From curl"}')).toMatchObject({
      status: 201,
    });
    const listed = await send(port, 'GET', '/api/projects', { host: `localhost:${port}` });
    expect(
      JSON.parse(listed.body).projects.map((project: { name: string }) => project.name),
    ).toEqual(['Mine', 'From curl']);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('on 0.0.0.0: refuses to start without an account, then serves only the signed in', async () => {
    const refused = forja(['serve'], { HOST: '0.0.0.0', PORT: '0', FORJA_DATA_DIR: dataDirectory });
    expect(await refused.exited).toBe(2);
    expect(refused.stderr()).toContain('forja user add NAME');

    const added = forja(
      ['user', 'add', 'ana'],
      { FORJA_DATA_DIR: dataDirectory },
      'a long enough password\n',
    );
    expect(await added.exited).toBe(0);
    const server = forja(['serve'], { HOST: '0.0.0.0', PORT: '0', FORJA_DATA_DIR: dataDirectory });
    const port = await listening(server);
    const host = { host: `127.0.0.1:${port}` };
    expect(await send(port, 'GET', '/api/projects', host)).toMatchObject({ status: 401 });
    expect(await send(port, 'GET', '/api/health', host)).toMatchObject({ status: 200 });
    const signedIn = await send(
      port,
      'POST',
      '/api/auth/sign-in',
      { ...host, 'content-type': 'application/json' },
      JSON.stringify({ username: 'ana', password: 'a long enough password' }),
    );
    expect(signedIn.status).toBe(200);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    const projects = await send(port, 'GET', '/api/projects', { ...host, cookie });
    expect(
      JSON.parse(projects.body).projects.map((project: { name: string }) => project.name),
    ).toEqual(['Mine', 'From curl']);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
