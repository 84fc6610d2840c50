import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const FORJA_BIN = new URL('../../bin/forja.ts', import.meta.url).pathname;

interface RunningForja {
  process: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

/** Starts `forja serve` as a user would, on embedded storage in `dataDirectory`, and waits for its URL. */
function startServer(dataDirectory: string): Promise<RunningForja> {
  const child = spawn(process.execPath, [FORJA_BIN, 'serve'], {
    env: { ...process.env, PORT: '0', FORJA_DATA_DIR: dataDirectory, DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"url":"(http:[^"]+)"/.exec(output);
      if (match) resolve({ process: child, url: match[1]!, exited });
    });
    void exited.then((code) =>
      reject(new Error(`forja serve exited with ${code} before listening:\n${output}`)),
    );
  });
}

async function post(url: string, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { id: string };
}

describe('forja serve on embedded PGlite', { timeout: 120_000 }, () => {
  it('keeps what was stored across a clean stop and a new start', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-serve-'));
    const first = await startServer(dataDirectory);
    const project = await post(`${first.url}/api/projects`, { name: 'Survives restarts' });
    const session = await post(`${first.url}/api/projects/${project.id}/sessions`, {});
    await post(`${first.url}/api/sessions/${session.id}/messages`, { text: 'remember me' });
    first.process.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = await startServer(dataDirectory);
    const events = (await (
      await fetch(`${second.url}/api/sessions/${session.id}/events`)
    ).json()) as { events: Array<{ payload: { text?: string } }> };
    expect(events.events.map((event) => event.payload.text)).toContain('remember me');
    second.process.kill('SIGINT');
    expect(await second.exited).toBe(0);
  });

  it('refuses a second process on the same data directory with a clear error', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-serve-'));
    const first = await startServer(dataDirectory);
    const second = spawn(process.execPath, [FORJA_BIN, 'serve'], {
      env: { ...process.env, PORT: '0', FORJA_DATA_DIR: dataDirectory, DATABASE_URL: '' },
    });
    started.push(second);
    let errorOutput = '';
    second.stderr.on('data', (chunk: Buffer) => (errorOutput += chunk.toString()));
    const code = await new Promise((resolve) => second.once('exit', resolve));
    expect(code).toBe(1);
    expect(errorOutput).toContain(`is in use by another Forja process (pid ${first.process.pid})`);
    // The first server is unharmed.
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a whole number'],
    [{ FORJA_MODEL: 'gpt-4o' }, 'FORJA_MODEL="gpt-4o" is not provider:model'],
    [
      { FORJA_MODEL: 'openai:llama3.1', OPENAI_BASE_URL: 'not-a-url' },
      'OPENAI_BASE_URL must be an absolute http:// or https:// URL',
    ],
    [
      { ANTHROPIC_BASE_URL: 'not-a-url' },
      'ANTHROPIC_BASE_URL must be an absolute http:// or https:// URL',
    ],
    [{ FORJA_TERMINAL_MODE: 'always' }, 'FORJA_TERMINAL_MODE must be auto, proposed or direct'],
    [
      { FORJA_TERMINAL_TIMEOUT_SECONDS: '0' },
      'FORJA_TERMINAL_TIMEOUT_SECONDS must be a whole number from 1 to 3600',
    ],
    [{ PSYCHOLOGIST_ENABLED: 'maybe' }, 'PSYCHOLOGIST_ENABLED must be true or false'],
    [
      { FORJA_DATA_DIR: '/proc/forja' },
      'FORJA_DATA_DIR=/proc/forja cannot be used as the data directory',
    ],
  ])('exits 2 with one line naming the variable and the rule: %o', async (env, rule) => {
    const child = spawn(process.execPath, [FORJA_BIN, 'serve'], {
      env: {
        ...process.env,
        PORT: '0',
        FORJA_DATA_DIR: mkdtempSync(join(tmpdir(), 'forja-serve-')),
        DATABASE_URL: '',
        ...env,
      },
    });
    started.push(child);
    let errorOutput = '';
    child.stderr.on('data', (chunk: Buffer) => (errorOutput += chunk.toString()));
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(2);
    expect(errorOutput).toContain(rule);
    expect(errorOutput.trimEnd().split('\n')).toEqual([expect.stringMatching(/^forja: /)]);
  });
});
