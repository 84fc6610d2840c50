import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readServerSentEvents } from '../../testing/read-server-sent-events.ts';

/** Helpers of the e2e tests that run the real `forja serve` (crash-restart, lanes-restart, lane-leases). */

const FORJA_BIN = new URL('../../../bin/forja.ts', import.meta.url).pathname;

export type StoredEvent = {
  id?: string;
  seq: number;
  type: string;
  payload: {
    agent?: string;
    turn_id?: string;
    tool_calls?: unknown;
    to_agent?: string;
    to?: string;
    id?: string;
  };
};

export interface RunningForja {
  process: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  output: () => string;
}

const started: ChildProcess[] = [];

/** Kills every server these helpers started and that is still running (each test's `afterEach`). */
export function killStartedServers(): void {
  for (const child of started.splice(0)) child.kill('SIGKILL');
}

/**
 * `forja serve` with the scripted model, as a user would start it: on embedded storage in `dataDirectory`,
 * or on the server `env.DATABASE_URL` names. Resolves when it listens.
 */
export function startServer(
  dataDirectory: string,
  scriptFile: string,
  env: NodeJS.ProcessEnv = {},
): Promise<RunningForja> {
  const child = spawn(process.execPath, [FORJA_BIN, 'serve'], {
    env: {
      ...process.env,
      PORT: '0',
      FORJA_DATA_DIR: dataDirectory,
      DATABASE_URL: '',
      FORJA_MODEL: `scripted:${scriptFile}`,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"url":"(http:[^"]+)"/.exec(output);
      if (match) resolve({ process: child, url: match[1]!, exited, output: () => output });
    };
    child.stderr!.on('data', read);
    child.stdout!.on('data', read);
    void exited.then((code) =>
      reject(new Error(`forja serve exited with ${code} before listening:\n${output}`)),
    );
  });
}

export async function call(url: string, method: string, body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.json() as Promise<Record<string, any>>;
}

export async function events(base: string, sessionId: string): Promise<StoredEvent[]> {
  return (await call(`${base}/api/sessions/${sessionId}/events?limit=1000`, 'GET'))[
    'events'
  ] as StoredEvent[];
}

/** Polls until `ready` holds of the session's events (bounded: 60 s, or `timeoutMs`). */
export async function waitFor(
  base: string,
  sessionId: string,
  ready: (log: StoredEvent[]) => boolean,
  timeoutMs = 60_000,
): Promise<StoredEvent[]> {
  for (
    const until = Date.now() + timeoutMs;
    Date.now() < until;
    await new Promise((resolve) => setTimeout(resolve, 100))
  ) {
    const log = await events(base, sessionId);
    if (ready(log)) return log;
  }
  const log = await events(base, sessionId);
  throw new Error(
    `the session never reached the awaited state: ${log.map((event) => event.type).join(', ')}`,
  );
}

/** Posts a message to the session through the process at `base`; resolves to the HTTP status (201 stored). */
export async function postMessage(base: string, sessionId: string, text: string): Promise<number> {
  const response = await fetch(`${base}/api/sessions/${sessionId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  await response.body?.cancel();
  return response.status;
}

/** A script file for `FORJA_MODEL=scripted:` holding `turns`. */
export function writeScript(turns: unknown[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'forja-script-')), 'script.json');
  writeFileSync(file, JSON.stringify({ turns }));
  return file;
}

/**
 * A browser's event stream of a session on the process at `base`: every message it receives, kept in
 * order (`received`), until `close`.
 */
export async function watchStream(base: string, sessionId: string) {
  const stream = readServerSentEvents(await fetch(`${base}/api/sessions/${sessionId}/stream`));
  const received: Array<{ event: string; data: Record<string, any> }> = [];
  const receive = async () => {
    const message = await stream.next(600_000).catch(() => null);
    if (message !== null)
      received.push({ event: message.event ?? 'message', data: JSON.parse(message.data) });
    return message;
  };
  // Connected once its first stored event arrives: every process then knows of this stream (ADR 0264).
  while ((await receive())?.event === 'agent.partial');
  const reading = (async () => {
    while ((await receive()) !== null);
  })();
  return {
    received,
    close: async () => (await stream.close().catch(() => undefined), await reading),
  };
}
