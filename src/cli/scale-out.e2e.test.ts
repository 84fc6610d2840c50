import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAiStream, startOpenAiTestServer } from '../gateway/providers/testing/index.ts';
import {
  call,
  events,
  killStartedServers,
  postMessage,
  startServer,
  waitFor,
  watchStream,
  writeScript,
  type RunningForja,
  type StoredEvent,
} from './testing/forja-serve.ts';
import {
  expectOneOwnerAtATime,
  finalAnswers,
  messageSeqs,
  settled,
  turnsStarted,
} from './testing/lane-log.ts';
import { onServer, scratchServerDatabase } from './testing/server-database.ts';

/**
 * Lanes across processes at scale (ADRs 0170, 0200): bursts of messages and kill -9 right after a 201 on one process (both
 * engines), and on two `forja serve` processes sharing one PostgreSQL server: a burst split across them, the
 * 60-turn budget race, and the LISTEN connections terminated. (Two processes need the server: on embedded
 * PGlite the data directory has one owner, which serve.e2e.test.ts proves.)
 */

afterEach(killStartedServers);

const serverUrl = process.env.DATABASE_URL;
const LEASE_SECONDS = '2';

async function newSession(bases: string[], projectId?: string) {
  const project =
    projectId ?? (await call(`${bases[0]}/api/projects`, 'POST', { name: 'Padaria' }))['id'];
  const session = await call(`${bases[0]}/api/projects/${project}/sessions`, 'POST', {});
  const sessionId = session['id'] as string;
  await call(`${bases.at(-1)}/api/sessions/${sessionId}/agents/criativo/start`, 'POST');
  return { projectId: project as string, sessionId };
}

async function stop(...processes: RunningForja[]): Promise<void> {
  for (const running of processes) {
    running.process.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  }
}

/** Short answers: a burst of 50 is answered in seconds. */
const SHORT_TURNS = Array.from({ length: 200 }, (_, index) => ({
  agent: 'criativo',
  text: `resposta ${index}`,
}));

describe.each([
  { name: 'embedded PGlite', server: null },
  ...(serverUrl ? [{ name: 'the PostgreSQL server', server: serverUrl }] : []),
])('one forja serve on $name', { timeout: 240_000 }, ({ server }) => {
  const databaseEnv = server === null ? {} : { DATABASE_URL: scratchServerDatabase(server) };
  // On the server, every process of the database serves one data directory (a shared mount in production).
  const serverDirectory = mkdtempSync(join(tmpdir(), 'forja-scale-'));
  const dataDirectory = () =>
    server === null ? mkdtempSync(join(tmpdir(), 'forja-scale-')) : serverDirectory;
  const start = (directory: string, scriptFile: string) =>
    startServer(directory, scriptFile, { ...databaseEnv, FORJA_LANE_LEASE_SECONDS: LEASE_SECONDS });

  it('answers every one of 50 concurrent messages to one session, each turn once', async () => {
    const forja = await start(dataDirectory(), writeScript(SHORT_TURNS));
    const { sessionId } = await newSession([forja.url]);
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        postMessage(forja.url, sessionId, `mensagem ${index}`),
      ),
    );
    expect(statuses).toEqual(Array(50).fill(201));
    const log = await waitFor(
      forja.url,
      sessionId,
      (log) => messageSeqs(log).length === 50 && settled(log),
    );
    // The last message of the burst is answered too, and no turn ran twice. (Each message is owed its own turn,
    // ADR 0345; owed-turns.e2e.test.ts counts them across two processes.)
    expect(finalAnswers(log).at(-1)!.seq).toBeGreaterThan(messageSeqs(log).at(-1)!);
    expectOneOwnerAtATime(log);
    await stop(forja);
  });

  it('answers after the restart every message acknowledged (201) right before a kill -9, 20 times', async () => {
    const directory = dataDirectory();
    // Each answer streams for ~0.5 s: a kill right after a 201 finds the message stored and its turn not
    // started, or started and streaming.
    const words = Array.from({ length: 10 }, (_, index) => `palavra${index}`).join(' ');
    const scriptFile = writeScript(
      Array.from({ length: 100 }, () => ({ agent: 'criativo', text: words, pace_ms: 50 })),
    );
    let forja = await start(directory, scriptFile);
    const { sessionId } = await newSession([forja.url]);
    const kills = 20;
    for (let kill = 1; kill <= kills; kill++) {
      expect(await postMessage(forja.url, sessionId, `mensagem ${kill}`)).toBe(201);
      forja.process.kill('SIGKILL');
      await forja.exited;
      forja = await start(directory, scriptFile);
    }
    const log = await waitFor(forja.url, sessionId, settled, 120_000);
    expect(messageSeqs(log)).toHaveLength(kills);
    // Give a late duplicate the time to show itself, then look again.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const again = await events(forja.url, sessionId);
    expect(settled(again)).toBe(true);
    expectOneOwnerAtATime(again);
    await stop(forja);
  });
});

describe.each(serverUrl ? [serverUrl] : [])(
  'two forja serve on one PostgreSQL server',
  { timeout: 240_000 },
  (server) => {
    const databaseUrl = scratchServerDatabase(server);
    // Both processes serve the database's one data directory (ADR 0316).
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-scale-'));
    const start = (scriptFile: string, env: NodeJS.ProcessEnv = {}) =>
      startServer(dataDirectory, scriptFile, {
        DATABASE_URL: databaseUrl,
        FORJA_LANE_LEASE_SECONDS: LEASE_SECONDS,
        ...env,
      });

    it('answers every one of 50 concurrent messages to one session sent alternately to both, each turn once', async () => {
      const scriptFile = writeScript(SHORT_TURNS);
      const processes = [await start(scriptFile), await start(scriptFile)];
      const bases = processes.map((running) => running.url);
      const { sessionId } = await newSession(bases);
      const statuses = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          postMessage(bases[index % 2]!, sessionId, `mensagem ${index}`),
        ),
      );
      expect(statuses).toEqual(Array(50).fill(201));
      await waitFor(bases[0]!, sessionId, (log) => messageSeqs(log).length === 50 && settled(log));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const log = await events(bases[1]!, sessionId);
      expect(settled(log)).toBe(true);
      expect(finalAnswers(log).at(-1)!.seq).toBeGreaterThan(messageSeqs(log).at(-1)!);
      expectOneOwnerAtATime(log);
      await stop(...processes);
    });

    it('60 concurrent turns across both against a small budget, the provider reporting 3x the estimate: spend stays within the budget plus one reservation, and no refused turn calls the provider', async () => {
      const provider = await startOpenAiTestServer();
      try {
        // Every call is answered with input tokens 3x the bytes/4 estimate and all of its max_tokens as output.
        const calls: Array<{ bytes: number; maxTokens: number; text: string }> = [];
        provider.respondWith((request) => {
          const body = request.body as { max_tokens: number; messages: unknown[] };
          const text = JSON.stringify(body);
          const bytes = Buffer.byteLength(text);
          calls.push({ bytes, maxTokens: body.max_tokens, text });
          return openAiStream({
            textDeltas: ['Entendi, ', 'me conte mais.'],
            usage: { inputTokens: 3 * Math.ceil(bytes / 4), outputTokens: body.max_tokens },
          });
        });
        const model = {
          FORJA_MODEL: 'openai:test-model',
          OPENAI_BASE_URL: provider.baseUrl,
          OPENAI_API_KEY: 'sk-test',
        };
        const scriptFile = writeScript([]);
        const processes = [await start(scriptFile, model), await start(scriptFile, model)];
        const bases = processes.map((running) => running.url);
        // One turn with no budget yet: what a call costs here.
        const first = await newSession(bases);
        await postMessage(bases[0]!, first.sessionId, 'sessão 0');
        await waitFor(bases[0]!, first.sessionId, (log) => finalAnswers(log).length === 1);
        const spentFirst = (await call(`${bases[0]}/api/projects/${first.projectId}/usage`, 'GET'))[
          'total_tokens'
        ] as number;
        const reservationAtMost = calls[0]!.bytes + calls[0]!.maxTokens;
        const budget = spentFirst + 3 * reservationAtMost;
        expect(
          await call(`${bases[1]}/api/projects/${first.projectId}/budget`, 'PUT', {
            max_tokens: budget,
          }),
        ).toEqual({ max_tokens: budget, max_usd: null });

        const sessions: string[] = [];
        for (let index = 0; index < 60; index++)
          sessions.push(
            (await newSession([bases[index % 2]!, bases[(index + 1) % 2]!], first.projectId))
              .sessionId,
          );
        const callsBefore = calls.length;
        const statuses = await Promise.all(
          sessions.map((sessionId, index) =>
            postMessage(bases[index % 2]!, sessionId, `sessão ${index + 1}`),
          ),
        );
        expect(statuses).toEqual(Array(60).fill(201));
        const ended = (log: StoredEvent[]) =>
          log.some(
            (event) =>
              event.type === 'turn.failed' ||
              (event.type === 'agent.response' && event.payload.tool_calls === undefined),
          );
        const logs = await Promise.all(
          sessions.map((sessionId, index) => waitFor(bases[index % 2]!, sessionId, ended, 120_000)),
        );
        const refused = logs.filter((log) => log.some((event) => event.type === 'budget.exceeded'));
        const completed = logs.filter((log) => finalAnswers(log).length === 1);
        expect(completed.length).toBeGreaterThan(0);
        expect(refused.length).toBeGreaterThan(0);
        expect(completed.length + refused.length).toBe(60);
        // Each completed turn made one call; a refused one made none (its message never reached the provider).
        expect(calls.length - callsBefore).toBe(completed.length);
        for (const [index, log] of logs.entries()) {
          const reached = calls.some((made) => made.text.includes(`sessão ${index + 1}"`));
          expect(reached, `session ${index + 1}`).toBe(finalAnswers(log).length === 1);
        }
        const requested = refused.map(
          (log) =>
            (
              log.find((event) => event.type === 'budget.exceeded')!.payload as {
                requested_tokens?: number;
              }
            ).requested_tokens!,
        );
        const reservation = Math.max(...requested);
        expect(reservation).toBeLessThanOrEqual(reservationAtMost);
        let usage: Record<string, any> = {};
        for (const until = Date.now() + 30_000; Date.now() < until; ) {
          usage = await call(`${bases[0]}/api/projects/${first.projectId}/usage`, 'GET');
          if (usage['reserved_tokens'] === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(usage['reserved_tokens']).toBe(0);
        expect(usage['total_tokens']).toBeLessThanOrEqual(budget + reservation);
        console.info(
          `budget race on two processes: ${completed.length} completed, ${refused.length} refused, ${calls.length - callsBefore} provider calls; spent ${usage['total_tokens']} of a budget of ${budget} (one reservation: ${reservation})`,
        );
        // A refusal holds while it is true: with the budget raised, a refused session's next message is answered.
        await call(`${bases[0]}/api/projects/${first.projectId}/budget`, 'PUT', {
          max_tokens: usage['total_tokens'] + reservationAtMost,
        });
        const retried = sessions[logs.indexOf(refused[0]!)]!;
        await postMessage(bases[1]!, retried, 'de novo');
        await waitFor(bases[1]!, retried, (log) => finalAnswers(log).length === 1);
        await stop(...processes);
      } finally {
        await provider.close();
      }
    });

    it('keeps serving and streaming across processes when their LISTEN connections are terminated', async () => {
      const words = Array.from({ length: 20 }, (_, index) => `palavra${index}`).join(' ');
      const scriptFile = writeScript(
        Array.from({ length: 10 }, () => ({ agent: 'criativo', text: words, pace_ms: 50 })),
      );
      const owner = await start(scriptFile);
      const other = await start(scriptFile);
      const { sessionId } = await newSession([owner.url]);
      const browser = await watchStream(other.url, sessionId);
      const terminated = await onServer<{ pid: number }>(
        databaseUrl,
        `select pg_terminate_backend(pid) as pid from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen %'`,
      );
      expect(terminated.length).toBeGreaterThanOrEqual(2);
      const saw = async (running: RunningForja, text: string) => {
        for (const until = Date.now() + 30_000; Date.now() < until; ) {
          if (running.output().includes(text)) return true;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return false;
      };
      for (const running of [owner, other]) {
        expect(await saw(running, 'lost the database connection that listens for appends')).toBe(
          true,
        );
        expect(await saw(running, 'listening for appends again')).toBe(true);
      }
      // Both still serve; a turn run by one streams live to a browser on the other, then its answer is stored.
      expect(await postMessage(owner.url, sessionId, 'depois da queda')).toBe(201);
      const log = await waitFor(
        other.url,
        sessionId,
        (log) => settled(log) && finalAnswers(log).length === 1,
      );
      // The stored answer and the live end travel on two channels: the last deltas come with the end, not the answer.
      const arrived = () =>
        browser.received.some((message) => message.data['type'] === 'agent.response') &&
        browser.received.some((message) => message.event === 'agent.done');
      for (const until = Date.now() + 10_000; Date.now() < until; ) {
        if (arrived()) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const deltas = browser.received.filter((message) => message.event === 'agent.delta');
      expect(deltas.map((delta) => delta.data['text']).join('')).toBe(words);
      expect(deltas[0]!.data['turn_id']).toBe(turnsStarted(log)[0]!.payload.turn_id);
      expect(
        browser.received.filter((message) => message.data['type'] === 'agent.response'),
      ).toHaveLength(1);
      await browser.close();
      await stop(owner, other);
    });
  },
);
