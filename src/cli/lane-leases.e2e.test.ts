import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readServerSentEvents } from '../testing/read-server-sent-events.ts';
import {
  call,
  events,
  killStartedServers,
  startServer,
  waitFor,
  type StoredEvent,
} from './testing/forja-serve.ts';

afterEach(killStartedServers);

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const finalAnswers = (log: StoredEvent[]) =>
  log.filter((event) => event.type === 'agent.response' && event.payload.tool_calls === undefined);
const turnsStarted = (log: StoredEvent[]) => log.filter((event) => event.type === 'turn.started');
const messageSeqs = (log: StoredEvent[]) =>
  log.filter((event) => event.type === 'chat.message').map((event) => event.seq);
const answered = (log: StoredEvent[]) =>
  messageSeqs(log).every((seq) =>
    log.some((event) => event.type === 'turn.started' && event.seq > seq),
  );

/** Every turn started once and ended once, one at a time in the lane, and no seq is missing. */
function expectOneOwnerAtATime(log: StoredEvent[]): void {
  expect(log.map((event) => event.seq)).toEqual(log.map((_, index) => index + 1));
  const started = turnsStarted(log).map((event) => event.payload.turn_id);
  expect(new Set(started).size).toBe(started.length);
  const ended = finalAnswers(log).map((event) => event.payload.turn_id);
  expect([...ended].sort()).toEqual([...started].sort());
  let open = 0;
  for (const event of log) {
    if (event.type === 'turn.started') open += 1;
    if (event.type === 'agent.response' && event.payload.tool_calls === undefined) open -= 1;
    expect(open, `at seq ${event.seq} two turns of the lane were open`).toBeLessThanOrEqual(1);
  }
}

describe('the lane lease length', () => {
  it('stops forja serve with exit code 2 naming FORJA_LANE_LEASE_SECONDS when it is not whole seconds from 1 to 3600', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'forja-lease-setting-'));
    const scriptFile = join(directory, 'script.json');
    writeFileSync(scriptFile, JSON.stringify({ turns: [{ agent: 'criativo', text: 'oi' }] }));
    await expect(
      startServer(join(directory, 'data'), scriptFile, { FORJA_LANE_LEASE_SECONDS: '0.5' }),
    ).rejects.toThrow(
      /exited with 2[\s\S]*FORJA_LANE_LEASE_SECONDS must be a whole number of seconds from 1 to 3600, not "0\.5"/,
    );
  });
});

// Two processes need a server: on embedded PGlite the data directory has one owner (serve.e2e.test.ts).
const serverUrl = process.env.DATABASE_URL;

describe.each(serverUrl ? [serverUrl] : [])(
  'two forja serve on one PostgreSQL server',
  { timeout: 240_000 },
  (server) => {
    const name = `forja_e2e_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const url = new URL(server);
    url.pathname = `/${name}`;
    beforeAll(() => onServer(server, `create database ${name}`));
    afterAll(() => onServer(server, `drop database if exists ${name} with (force)`));

    const start = (scriptFile: string) =>
      startServer(mkdtempSync(join(tmpdir(), 'forja-lease-')), scriptFile, {
        DATABASE_URL: url.toString(),
        FORJA_LANE_LEASE_SECONDS: '2',
      });

    it('runs every turn exactly once when messages to several sessions reach both processes alternately', async () => {
      const scriptFile = join(mkdtempSync(join(tmpdir(), 'forja-lease-script-')), 'script.json');
      // Short streamed answers (~0.2 s), so a message often reaches one process while the other runs the lane.
      writeFileSync(
        scriptFile,
        JSON.stringify({
          turns: Array.from({ length: 80 }, () => ({
            agent: 'criativo',
            text: 'Entendi, me conte mais sobre isso.',
            pace_ms: 30,
          })),
        }),
      );
      const processes = [await start(scriptFile), await start(scriptFile)];
      const via = (index: number) => processes[index % 2]!.url;
      const project = await call(`${via(0)}/api/projects`, 'POST', { name: 'Padaria' });
      const sessions: string[] = [];
      for (let index = 0; index < 3; index++) {
        const session = await call(
          `${via(index)}/api/projects/${project['id']}/sessions`,
          'POST',
          {},
        );
        sessions.push(session['id'] as string);
        await call(`${via(index + 1)}/api/sessions/${session['id']}/agents/criativo/start`, 'POST');
      }
      await Promise.all(
        sessions.map(async (sessionId, index) => {
          for (let message = 0; message < 4; message++) {
            const posted = await fetch(
              `${via(index + message)}/api/sessions/${sessionId}/messages`,
              {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ text: `mensagem ${message}` }),
              },
            );
            expect(posted.status).toBe(201);
            await new Promise((resolve) => setTimeout(resolve, 80));
          }
        }),
      );
      for (const [index, sessionId] of sessions.entries())
        await waitFor(
          via(index),
          sessionId,
          (log) =>
            messageSeqs(log).length === 4 &&
            answered(log) &&
            turnsStarted(log).length === finalAnswers(log).length,
        );
      // Give a late duplicate the time to show itself, then look again, through the other process.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      for (const [index, sessionId] of sessions.entries()) {
        const log = await events(via(index + 1), sessionId);
        expect(answered(log)).toBe(true);
        expectOneOwnerAtATime(log);
      }
      for (const running of processes) {
        running.process.kill('SIGTERM');
        expect(await running.exited).toBe(0);
      }
    });

    it('answers a message stored through one process while the other runs the lane, after its turn, once', async () => {
      const scriptFile = join(mkdtempSync(join(tmpdir(), 'forja-lease-script-')), 'script.json');
      const words = Array.from({ length: 60 }, (_, index) => `palavra${index}`).join(' ');
      // Each answer streams for ~6 s: the second message reaches the other process while the first turn runs.
      writeFileSync(
        scriptFile,
        JSON.stringify({
          turns: Array.from({ length: 10 }, () => ({
            agent: 'criativo',
            text: words,
            pace_ms: 100,
          })),
        }),
      );
      const owner = await start(scriptFile);
      const other = await start(scriptFile);
      const project = await call(`${owner.url}/api/projects`, 'POST', { name: 'Padaria' });
      const session = await call(`${owner.url}/api/projects/${project['id']}/sessions`, 'POST', {});
      const sessionId = session['id'] as string;
      await call(`${owner.url}/api/sessions/${sessionId}/agents/criativo/start`, 'POST');
      await call(`${owner.url}/api/sessions/${sessionId}/messages`, 'POST', { text: 'primeira' });
      await waitFor(owner.url, sessionId, (log) => turnsStarted(log).length === 1);
      await call(`${other.url}/api/sessions/${sessionId}/messages`, 'POST', { text: 'segunda' });
      const log = await waitFor(
        other.url,
        sessionId,
        (log) => answered(log) && finalAnswers(log).length === 2,
      );
      expect(turnsStarted(log)).toHaveLength(2);
      expect(finalAnswers(log)).toHaveLength(2);
      // The second message was stored while the first turn ran, and its turn came after that turn ended.
      const [, second] = log.filter((event) => event.type === 'chat.message');
      const [firstAnswer] = finalAnswers(log);
      expect(second!.seq).toBeLessThan(firstAnswer!.seq);
      expectOneOwnerAtATime(log);
      for (const running of [owner, other]) {
        running.process.kill('SIGTERM');
        expect(await running.exited).toBe(0);
      }
    });

    it('kill -9 of the process streaming a turn: the other takes the lane over, the turn ends once, nothing is lost', async () => {
      const scriptFile = join(mkdtempSync(join(tmpdir(), 'forja-lease-script-')), 'script.json');
      const words = Array.from({ length: 60 }, (_, index) => `palavra${index}`).join(' ');
      // Each answer streams for ~6 s (60 words, 100 ms apart): a kill 0.7 s after the turn starts lands mid-stream.
      writeFileSync(
        scriptFile,
        JSON.stringify({
          turns: Array.from({ length: 10 }, () => ({
            agent: 'criativo',
            text: words,
            pace_ms: 100,
          })),
        }),
      );
      const owner = await start(scriptFile);
      const other = await start(scriptFile);
      const project = await call(`${owner.url}/api/projects`, 'POST', { name: 'Padaria' });
      const session = await call(`${owner.url}/api/projects/${project['id']}/sessions`, 'POST', {});
      const sessionId = session['id'] as string;
      await call(`${owner.url}/api/sessions/${sessionId}/agents/criativo/start`, 'POST');
      // A browser connected to the other process: it sees the owner's turn stream live (issue 18, item 2).
      const browser = readServerSentEvents(
        await fetch(`${other.url}/api/sessions/${sessionId}/stream`),
      );
      const deltas: Array<{ turn_id: string; text: string }> = [];
      const reading = (async () => {
        for (;;) {
          const message = await browser.next(120_000).catch(() => null);
          if (message === null) return;
          if (message.event === 'agent.delta') deltas.push(JSON.parse(message.data));
        }
      })();
      await call(`${owner.url}/api/sessions/${sessionId}/messages`, 'POST', {
        text: 'Quero vender pão de madrugada.',
      });
      const [turn] = turnsStarted(
        await waitFor(owner.url, sessionId, (log) => turnsStarted(log).length === 1),
      );
      // Mid-stream: the owner has streamed words, the other process's browser has them.
      for (const until = Date.now() + 30_000; Date.now() < until && deltas.length < 3; )
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(deltas.length).toBeGreaterThanOrEqual(3);
      expect(deltas[0]).toMatchObject({ turn_id: turn!.payload.turn_id });
      expect(deltas.map((delta) => delta.text).join('')).toMatch(/^palavra0 palavra1 palavra2/);
      const beforeKill = await events(owner.url, sessionId);
      expect(finalAnswers(beforeKill)).toHaveLength(0);
      owner.process.kill('SIGKILL');
      await owner.exited;

      const log = await waitFor(other.url, sessionId, (log) => finalAnswers(log).length === 1);
      expect(other.output()).toContain(
        'taking over a lane whose process stopped renewing its lease',
      );
      expect(turnsStarted(log)).toHaveLength(1);
      expect(finalAnswers(log)[0]!.payload.turn_id).toBe(turnsStarted(log)[0]!.payload.turn_id);
      // Every event stored before the kill is still there, in its place.
      expect(log.slice(0, beforeKill.length)).toEqual(beforeKill);
      expectOneOwnerAtATime(log);
      // The dead process's reservation is settled as interrupted once its heartbeat is stale (ADR 0130).
      let usage: Record<string, any> = {};
      for (const until = Date.now() + 90_000; Date.now() < until; ) {
        usage = await call(`${other.url}/api/projects/${project['id']}/usage`, 'GET');
        if (usage['reserved_tokens'] === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(usage['reserved_tokens']).toBe(0);
      expect(usage['by_agent_and_model']).toMatchObject([{ calls: 2, interrupted_calls: 1 }]);
      await browser.close();
      await reading;
      other.process.kill('SIGTERM');
      expect(await other.exited).toBe(0);
    });

    it('a process frozen past its lease loses the lane: the other finishes the turn, and the frozen one, woken, cannot append to it', async () => {
      const scriptFile = join(mkdtempSync(join(tmpdir(), 'forja-lease-script-')), 'script.json');
      const words = Array.from({ length: 60 }, (_, index) => `palavra${index}`).join(' ');
      writeFileSync(
        scriptFile,
        JSON.stringify({
          turns: Array.from({ length: 10 }, () => ({
            agent: 'criativo',
            text: words,
            pace_ms: 100,
          })),
        }),
      );
      const owner = await start(scriptFile);
      const other = await start(scriptFile);
      const project = await call(`${owner.url}/api/projects`, 'POST', { name: 'Padaria' });
      const session = await call(`${owner.url}/api/projects/${project['id']}/sessions`, 'POST', {});
      const sessionId = session['id'] as string;
      await call(`${owner.url}/api/sessions/${sessionId}/agents/criativo/start`, 'POST');
      await call(`${owner.url}/api/sessions/${sessionId}/messages`, 'POST', { text: 'olá' });
      await waitFor(owner.url, sessionId, (log) => turnsStarted(log).length === 1);
      // A stall (a long pause, a frozen VM): the owner stops renewing, mid-stream, without dying.
      owner.process.kill('SIGSTOP');
      const finished = await waitFor(other.url, sessionId, (log) => finalAnswers(log).length === 1);
      owner.process.kill('SIGCONT');
      const saw = async (text: string) => {
        for (const until = Date.now() + 60_000; Date.now() < until; ) {
          if (owner.output().includes(text)) return true;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return false;
      };
      // Woken, it finds its lease taken, and its stream's end is refused by the fence.
      expect(await saw('this process lost a lane it was running')).toBe(true);
      expect(await saw('is no longer held by process')).toBe(true);
      const log = await events(other.url, sessionId);
      expect(log).toEqual(finished);
      expect(turnsStarted(log)).toHaveLength(1);
      expect(finalAnswers(log)).toHaveLength(1);
      expectOneOwnerAtATime(log);
      for (const running of [owner, other]) {
        running.process.kill('SIGTERM');
        await running.exited;
      }
    });
  },
);
