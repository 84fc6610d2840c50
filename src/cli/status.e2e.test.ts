import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { ForjaStatus } from '../store/index.ts';

const FORJA_BIN = new URL('../../bin/forja.ts', import.meta.url).pathname;

type StoredEvent = { seq: number; type: string; payload: { agent?: string; tool_calls?: unknown } };
interface RunningForja {
  process: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

/** A script whose one answer streams for ten minutes: the turn is still running whenever the test looks. */
function slowScript(directory: string): string {
  const file = join(directory, 'script.json');
  const words = Array.from({ length: 3_000 }, (_, index) => `palavra${index}`).join(' ');
  writeFileSync(
    file,
    JSON.stringify({ turns: [{ agent: 'criativo', text: words, pace_ms: 200 }] }),
  );
  return file;
}

function startServer(env: Record<string, string>): Promise<RunningForja> {
  const child = spawn(process.execPath, [FORJA_BIN, 'serve'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
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
      if (match) resolve({ process: child, url: match[1]!, exited });
    };
    child.stderr!.on('data', read);
    child.stdout!.on('data', read);
    void exited.then((code) =>
      reject(new Error(`forja serve exited with ${code} before listening:\n${output}`)),
    );
  });
}

/** Runs `forja status` as a person would, with the server's storage settings. */
function runStatus(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [FORJA_BIN, 'status', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

async function call(url: string, method: string, body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.json() as Promise<Record<string, any>>;
}

async function waitFor(base: string, sessionId: string, ready: (log: StoredEvent[]) => boolean) {
  for (const until = Date.now() + 120_000; Date.now() < until; ) {
    const log = (await call(`${base}/api/sessions/${sessionId}/events?limit=1000`, 'GET'))[
      'events'
    ] as StoredEvent[];
    if (ready(log)) return log;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the session never reached the awaited state');
}

/**
 * A session mid-turn: Criativo streams its answer (a reservation open), and a second message waits behind it.
 * Returns the session id.
 */
async function sessionMidTurn(server: RunningForja): Promise<string> {
  const project = await call(`${server.url}/api/projects`, 'POST', { name: 'Padaria' });
  const session = await call(`${server.url}/api/projects/${project['id']}/sessions`, 'POST', {
    title: 'madrugada',
  });
  const sessionId = session['id'] as string;
  await call(`${server.url}/api/sessions/${sessionId}/agents/criativo/start`, 'POST');
  await call(`${server.url}/api/sessions/${sessionId}/messages`, 'POST', {
    text: 'Quero vender pão de madrugada.',
  });
  await waitFor(server.url, sessionId, (log) => log.some((event) => event.type === 'turn.started'));
  await call(`${server.url}/api/sessions/${sessionId}/messages`, 'POST', { text: 'E café?' });
  return sessionId;
}

/** A second script, the ContextManager's own model (`FORJA_MODEL_CONTEXT_MANAGER`): `forja status` shows both. */
function summaryScript(directory: string): string {
  const file = join(directory, 'summaries.json');
  writeFileSync(file, JSON.stringify({ turns: [{ agent: 'context-manager', text: 'Resumo.' }] }));
  return file;
}

/** `forja status` says which model each agent kind of the process uses, and which variable chose it. */
function expectModels(text: string, directory: string) {
  expect(text).toContain(
    `    criativo, po, arquiteto, dev, psicologo, anamnese → scripted:${join(directory, 'script.json')} (FORJA_MODEL)`,
  );
  expect(text).toContain(
    `    context-manager → scripted:${join(directory, 'summaries.json')} (FORJA_MODEL_CONTEXT_MANAGER)`,
  );
}

/** `laneOwnerPid`: on the server, the pid of the process holding Criativo's lane; on PGlite no lane is leased. */
function expectMidTurn(status: ForjaStatus, sessionId: string, laneOwnerPid?: number) {
  const session = status.sessions.find((shown) => shown.session_id === sessionId);
  expect(session).toMatchObject({
    title: 'madrugada',
    unanswered_messages: 1,
    pending_kickoffs: [],
    reserved_calls: 1,
  });
  expect(session!.lane_owners?.map((lease) => [lease.lane, lease.pid]) ?? null).toEqual(
    laneOwnerPid === undefined ? null : [['criativo', laneOwnerPid]],
  );
  expect(session!.turns_in_progress.map((turn) => turn.agent)).toEqual(['criativo']);
  expect(session!.reserved_tokens).toBeGreaterThan(0);
  expect(status.reserved.calls).toBe(1);
}

describe('forja status on embedded PGlite', { timeout: 300_000 }, () => {
  it('says clearly that a running process holds the data directory, and after a kill -9 shows what it left', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-status-'));
    const env = { FORJA_DATA_DIR: dataDirectory, DATABASE_URL: '' };
    const server = await startServer({
      ...env,
      FORJA_MODEL: `scripted:${slowScript(dataDirectory)}`,
      FORJA_MODEL_CONTEXT_MANAGER: `scripted:${summaryScript(dataDirectory)}`,
    });
    const sessionId = await sessionMidTurn(server);

    const held = await runStatus(env);
    expect(held.code).toBe(1);
    expect(held.stdout).toContain(
      `Forja is running on the data directory ${dataDirectory} (pid ${server.process.pid})`,
    );
    const heldJson = await runStatus(env, ['--json']);
    expect(heldJson.code).toBe(1);
    expect(JSON.parse(heldJson.stdout)).toMatchObject({
      readable: false,
      data_directory: dataDirectory,
      held_by: { pid: server.process.pid },
    });

    server.process.kill('SIGKILL');
    await server.exited;
    const shown = await runStatus(env, ['--json']);
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    const status = JSON.parse(shown.stdout) as ForjaStatus & { readable: boolean };
    expect(status.readable).toBe(true);
    expect(status.processes).toMatchObject([{ pid: server.process.pid, alive: false }]);
    expectMidTurn(status, sessionId);
    expect(status.idle_sessions).toBe(0);

    const text = await runStatus(env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`No Forja process runs on ${dataDirectory}`);
    expect(text.stdout).toContain(`pid ${server.process.pid} on `);
    expect(text.stdout).toContain(
      'not running: it stopped without a clean exit (killed or crashed)',
    );
    expect(text.stdout).not.toContain('stopped cleanly');
    expect(text.stdout).toContain(`${sessionId} "madrugada"`);
    expect(text.stdout).toContain('messages waiting for a turn: 1');
    expect(text.stdout).toContain('turn in progress: criativo (message, since ');
    expect(text.stdout).toContain('1 model call open, holding ');
    expectModels(text.stdout, dataDirectory);
    expect(status.processes[0]!.models).toContainEqual({
      agent: 'context-manager',
      variable: 'FORJA_MODEL_CONTEXT_MANAGER',
      provider: 'scripted',
      model: join(dataDirectory, 'summaries.json'),
    });
  });

  it('tells a clean stop (SIGTERM) from a crash (kill -9)', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-status-'));
    const env = { FORJA_DATA_DIR: dataDirectory, DATABASE_URL: '' };
    const stopped = await startServer(env);
    stopped.process.kill('SIGTERM');
    expect(await stopped.exited).toBe(0);
    const clean = await runStatus(env);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(
      new RegExp(`pid ${stopped.process.pid} on .*, started \\S+ — stopped cleanly at \\S+`),
    );
    expect(clean.stdout).not.toContain('without a clean exit');
    const cleanJson = JSON.parse((await runStatus(env, ['--json'])).stdout) as ForjaStatus;
    expect(cleanJson.processes).toEqual([]);
    expect(cleanJson.stopped_cleanly).toMatchObject([{ pid: stopped.process.pid }]);

    const killed = await startServer(env);
    killed.process.kill('SIGKILL');
    await killed.exited;
    const crashed = await runStatus(env);
    expect(crashed.stdout).toContain(`pid ${killed.process.pid} on `);
    expect(crashed.stdout).toMatch(
      new RegExp(`pid ${killed.process.pid} on .*not running: it stopped without a clean exit`),
    );
    expect(crashed.stdout).not.toMatch(
      new RegExp(`pid ${killed.process.pid} on .*stopped cleanly`),
    );
  });

  it('on a data directory where nothing is stored, says so instead of creating one', async () => {
    const dataDirectory = join(mkdtempSync(join(tmpdir(), 'forja-status-')), 'typo');
    const result = await runStatus({ FORJA_DATA_DIR: dataDirectory, DATABASE_URL: '' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`nothing is stored in the data directory ${dataDirectory}`);
  });
});

const serverUrl = process.env.DATABASE_URL;
if (serverUrl)
  describe('forja status on the PostgreSQL server', { timeout: 300_000 }, () => {
    it('reads while Forja runs: the live process, the session mid-turn', async () => {
      const name = `forja_status_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
      await onServer(serverUrl, `create database ${name}`);
      try {
        const url = new URL(serverUrl);
        url.pathname = `/${name}`;
        const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-status-'));
        const env = { FORJA_DATA_DIR: dataDirectory, DATABASE_URL: url.toString() };
        const server = await startServer({
          ...env,
          FORJA_MODEL: `scripted:${slowScript(dataDirectory)}`,
          FORJA_MODEL_CONTEXT_MANAGER: `scripted:${summaryScript(dataDirectory)}`,
        });
        const sessionId = await sessionMidTurn(server);
        const shown = await runStatus(env, ['--json']);
        expect(shown.code).toBe(0);
        const status = JSON.parse(shown.stdout) as ForjaStatus;
        expect(status.database).toBe('postgres');
        expect(status.processes).toMatchObject([{ pid: server.process.pid, alive: true }]);
        expectMidTurn(status, sessionId, server.process.pid);
        const text = await runStatus(env);
        expect(text.stdout).toContain(`pid ${server.process.pid} on `);
        expect(text.stdout).toMatch(/last seen \d+ s ago — alive/);
        expect(text.stdout).toContain(`lane criativo: held by pid ${server.process.pid} (epoch `);
        expectModels(text.stdout, dataDirectory);
        // Not SIGTERM: a clean stop lets the turn end, and this one streams for ten minutes.
        server.process.kill('SIGKILL');
        await server.exited;
      } finally {
        await onServer(serverUrl, `drop database if exists ${name} with (force)`);
      }
    });
  });

if (serverUrl)
  describe('forja status on the PostgreSQL server, after a stop', { timeout: 300_000 }, () => {
    it('lists a process stopped by SIGTERM as stopped cleanly, and not one killed with -9', async () => {
      const name = `forja_status_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
      await onServer(serverUrl, `create database ${name}`);
      try {
        const url = new URL(serverUrl);
        url.pathname = `/${name}`;
        const env = {
          FORJA_DATA_DIR: mkdtempSync(join(tmpdir(), 'forja-status-')),
          DATABASE_URL: url.toString(),
        };
        const stopped = await startServer(env);
        stopped.process.kill('SIGTERM');
        expect(await stopped.exited).toBe(0);
        const killed = await startServer(env);
        killed.process.kill('SIGKILL');
        await killed.exited;

        const status = JSON.parse((await runStatus(env, ['--json'])).stdout) as ForjaStatus;
        expect(status.stopped_cleanly.map((exit) => exit.pid)).toEqual([stopped.process.pid]);
        expect(status.processes.map((process) => process.pid)).toEqual([killed.process.pid]);
        expect((await runStatus(env)).stdout).toMatch(
          new RegExp(`pid ${stopped.process.pid} on .* — stopped cleanly at `),
        );
      } finally {
        await onServer(serverUrl, `drop database if exists ${name} with (force)`);
      }
    });
  });

async function onServer(connectionString: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
