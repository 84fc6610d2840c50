import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDirectory } from '../store/data-directory-lock.ts';

const REPOSITORY = new URL('../..', import.meta.url).pathname;
const FORJA_BIN = join(REPOSITORY, 'bin/forja.ts');

interface Started {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** The URL and pid the server logs once it listens (the pid is the server's own, under npm too). */
  listening: Promise<{ url: string; pid: number }>;
  output: () => string;
}

const children: ChildProcess[] = [];
const serverPids: number[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const pid of serverPids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
});

function start(command: string, args: string[], dataDirectory: string): Started {
  const child = spawn(command, args, {
    cwd: REPOSITORY,
    env: {
      ...process.env,
      PORT: '0',
      FORJA_DATA_DIR: dataDirectory,
      DATABASE_URL: '',
      FORJA_MODEL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const listening = new Promise<{ url: string; pid: number }>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const line = /^\{.*"url":"(http:[^"]+)".*$/m.exec(output);
      const pid = line && /"pid":(\d+)/.exec(line[0]);
      if (line && pid) {
        serverPids.push(Number(pid[1]));
        resolve({ url: line[1]!, pid: Number(pid[1]) });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) =>
      reject(new Error(`${command} exited with ${code} before listening:\n${output}`)),
    );
  });
  return { child, exited, listening, output: () => output };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the process is gone; gives up (and the assertion after it fails) only after a minute. */
async function gone(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 60_000 && isAlive(pid); waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return !isAlive(pid);
}

async function post(url: string, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { id: string };
}

describe('stopping forja', { timeout: 180_000 }, () => {
  it('SIGTERM to the `npm start` process stops the server it started and releases the data directory', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-stop-'));
    const npm = start('npm', ['start'], dataDirectory);
    const { url, pid } = await npm.listening;
    expect(pid).not.toBe(npm.child.pid);
    expect(readFileSync(join(dataDirectory, 'forja.lock'), 'utf8')).toContain(`"pid":${pid}`);
    expect(() => lockDataDirectory(dataDirectory)).toThrow(`(pid ${pid})`);

    npm.child.kill('SIGTERM');
    await npm.exited;
    expect(await gone(pid)).toBe(true);
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
    expect(readFileSync(join(dataDirectory, 'forja.lock'), 'utf8')).toBe('');
    lockDataDirectory(dataDirectory).release();
    expect(npm.output()).toContain('"msg":"stopped"');
  });

  it('SIGTERM to `npx forja serve` stops the server too: the shell npx puts in between dies, and the orphaned server notices', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-stop-'));
    const npx = start('npx', ['forja', 'serve'], dataDirectory);
    const { url, pid } = await npx.listening;
    expect(pid).not.toBe(npx.child.pid);

    npx.child.kill('SIGTERM');
    await npx.exited;
    expect(await gone(pid)).toBe(true);
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
    expect(readFileSync(join(dataDirectory, 'forja.lock'), 'utf8')).toBe('');
    lockDataDirectory(dataDirectory).release();
  });

  it('stops promptly with a browser tab open: the open event stream is ended, not waited for', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-stop-'));
    const forja = start(process.execPath, [FORJA_BIN, 'serve'], dataDirectory);
    const { url } = await forja.listening;
    const project = await post(`${url}/api/projects`, { name: 'A tab stays open' });
    const session = await post(`${url}/api/projects/${project.id}/sessions`, {});
    const stream = await fetch(`${url}/api/sessions/${session.id}/stream`);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = stream.body!.getReader();

    const signalledAt = Date.now();
    forja.child.kill('SIGTERM');
    expect(await forja.exited).toBe(0);
    const exitedAfterMs = Date.now() - signalledAt;
    // The tab sees its stream end (an EventSource would then try to reconnect); ending it is not an error.
    await readToEnd(reader).catch(() => undefined);
    // The stop ended the stream rather than waiting it out through the grace period (no timer is asserted).
    const stopped = /"msg":"stopped"/.test(forja.output())
      ? /"stop_ms":(\d+),"ended_event_streams":(\d+)/.exec(forja.output())
      : null;
    expect(stopped?.[2]).toBe('1');
    console.info(
      `forja stopped ${stopped![1]} ms after SIGTERM with an event stream open (process gone after ${exitedAfterMs} ms)`,
    );
  });
});

async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  for (;;) if ((await reader.read()).done) return;
}
