import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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
  answered,
  expectOneOwnerAtATime,
  finalAnswers,
  messageSeqs,
  settled,
  turnsStarted,
} from './testing/lane-log.ts';
import { onServer, scratchServerDatabase } from './testing/server-database.ts';

afterEach(killStartedServers);

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
  { timeout: 300_000 },
  (server) => {
    const databaseUrl = scratchServerDatabase(server);
    // Both processes serve the database's one data directory (ADR 0316).
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-lease-'));
    const start = (scriptFile: string) =>
      startServer(dataDirectory, scriptFile, {
        DATABASE_URL: databaseUrl,
        FORJA_LANE_LEASE_SECONDS: '2',
      });

    it('runs every turn exactly once when messages to 20 sessions reach both processes alternately, and streams each turn to browsers on both', async () => {
      // Short streamed answers (~0.2 s), so a message often reaches one process while the other runs the lane.
      const text = 'Entendi, me conte mais sobre isso.';
      const scriptFile = writeScript(
        Array.from({ length: 200 }, () => ({ agent: 'criativo', text, pace_ms: 30 })),
      );
      const processes = [await start(scriptFile), await start(scriptFile)];
      const via = (index: number) => processes[index % 2]!.url;
      const project = await call(`${via(0)}/api/projects`, 'POST', { name: 'Padaria' });
      const sessions: string[] = [];
      for (let index = 0; index < 20; index++) {
        const session = await call(
          `${via(index)}/api/projects/${project['id']}/sessions`,
          'POST',
          {},
        );
        sessions.push(session['id'] as string);
        await call(`${via(index + 1)}/api/sessions/${session['id']}/agents/criativo/start`, 'POST');
      }
      // A browser on each process for every session.
      const browsers = await Promise.all(
        sessions.flatMap((sessionId) => [
          watchStream(via(0), sessionId),
          watchStream(via(1), sessionId),
        ]),
      );
      await Promise.all(
        sessions.map(async (sessionId, index) => {
          for (let message = 0; message < 4; message++) {
            expect(await postMessage(via(index + message), sessionId, `mensagem ${message}`)).toBe(
              201,
            );
            await new Promise((resolve) => setTimeout(resolve, 80));
          }
        }),
      );
      for (const [index, sessionId] of sessions.entries())
        await waitFor(
          via(index),
          sessionId,
          (log) => messageSeqs(log).length === 4 && settled(log),
        );
      // Give a late duplicate the time to show itself, then look again, through the other process.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      for (const [index, sessionId] of sessions.entries()) {
        const log = await events(via(index + 1), sessionId);
        expect(answered(log)).toBe(true);
        expectOneOwnerAtATime(log);
        // Both browsers saw every turn stream live, wherever it ran, and its answer once.
        for (const browser of browsers.slice(2 * index, 2 * index + 2)) {
          const streamed = new Map<string, string>();
          for (const message of browser.received)
            if (message.event === 'agent.delta')
              streamed.set(
                message.data['turn_id'],
                (streamed.get(message.data['turn_id']) ?? '') + message.data['text'],
              );
          expect(Object.fromEntries(streamed)).toEqual(
            Object.fromEntries(turnsStarted(log).map((turn) => [turn.payload.turn_id, text])),
          );
          const stored = browser.received
            .filter((message) => message.event === 'session.event')
            .map((message) => message.data['seq']);
          expect(stored).toEqual(log.slice(stored[0] - 1).map((event) => event.seq));
        }
      }
      await Promise.all(browsers.map((browser) => browser.close()));
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

    it('20 x kill -9 of the process streaming a turn, the others alive: one takes the lane over, every turn ends once, nothing is lost, and no tokens stay reserved', async () => {
      const words = Array.from({ length: 20 }, (_, index) => `palavra${index}`).join(' ');
      // Each answer streams for ~1 s (20 words, 50 ms apart): a kill once browsers saw 3 words lands mid-stream.
      const scriptFile = writeScript(
        Array.from({ length: 200 }, () => ({ agent: 'criativo', text: words, pace_ms: 50 })),
      );
      // Three processes: the killed one restarts while the next round runs, so each round has two alive.
      const processes: Array<RunningForja | null> = await Promise.all([
        start(scriptFile),
        start(scriptFile),
        start(scriptFile),
      ]);
      const restarts: Array<Promise<void>> = [];
      const alive = () => processes.filter((running): running is RunningForja => running !== null);
      const base = () => alive()[0]!.url;
      const project = await call(`${base()}/api/projects`, 'POST', { name: 'Padaria' });
      const session = await call(`${base()}/api/projects/${project['id']}/sessions`, 'POST', {});
      const sessionId = session['id'] as string;
      await call(`${alive()[1]!.url}/api/sessions/${sessionId}/agents/criativo/start`, 'POST');
      const ownerPid = async () =>
        (
          await onServer<{ pid: number }>(
            databaseUrl,
            `select p.pid from forja_lane_leases l join forja_processes p on p.id = l.owner
             where l.session_id = '${sessionId}' and l.lane = 'criativo'`,
          )
        )[0]?.pid;
      const kills = 20;
      const takeovers: number[] = [];
      const snapshots: StoredEvent[][] = [];
      for (let kill = 1; kill <= kills; kill++) {
        // Polled, which yields to the event loop. Racing `restarts` settled at once on a restart long done, so
        // the loop spun in microtasks: the restarting process's output was never read, and each lap left one more
        // reaction on the restart still pending, until the heap ran out (CI's out-of-memory abort).
        for (const until = Date.now() + 60_000; alive().length < 2 && Date.now() < until; )
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(alive().length, 'two processes alive for this round').toBeGreaterThanOrEqual(2);
        const running = alive();
        // A browser on each live process; the turn runs in one of them: its owner.
        const browsers = await Promise.all(
          running.map((forja) => watchStream(forja.url, sessionId)),
        );
        expect(
          await postMessage(running[kill % running.length]!.url, sessionId, `mensagem ${kill}`),
        ).toBe(201);
        const log = await waitFor(running[0]!.url, sessionId, (log) =>
          turnsStarted(log).some((turn) => turn.seq > messageSeqs(log).at(-1)!),
        );
        const turn = turnsStarted(log).at(-1)!;
        const deltasOf = (index: number) =>
          browsers[index]!.received.filter(
            (message) =>
              message.event === 'agent.delta' && message.data['turn_id'] === turn.payload.turn_id,
          );
        for (
          const until = Date.now() + 30_000;
          Date.now() < until && !browsers.every((_, index) => deltasOf(index).length >= 3);
        )
          await new Promise((resolve) => setTimeout(resolve, 20));
        // Mid-stream: browsers on every process have the first words.
        for (const index of browsers.keys())
          expect(
            deltasOf(index)
              .map((delta) => delta.data['text'])
              .join(''),
          ).toMatch(/^palavra0 palavra1 palavra2/);
        const pid = await ownerPid();
        const owner = processes.findIndex((forja) => forja?.process.pid === pid);
        expect(
          owner,
          `the lane's owner (pid ${pid}) is one of the processes`,
        ).toBeGreaterThanOrEqual(0);
        const killed = processes[owner]!;
        const survivors = alive().filter((forja) => forja !== killed);
        const before = await events(survivors[0]!.url, sessionId);
        expect(finalAnswers(before).at(-1)?.payload.turn_id).not.toBe(turn.payload.turn_id);
        snapshots.push(before);
        const [killedIdentity] = await onServer<{ id: string }>(
          databaseUrl,
          `select id from forja_processes where pid = ${pid}`,
        );
        killed.process.kill('SIGKILL');
        const killedAt = Date.now();
        await killed.exited;
        processes[owner] = null;
        await Promise.all(browsers.map((browser) => browser.close()));
        // A live process takes the lane over (a survivor's takeover, or the start-up of one restarted meanwhile).
        const answeredTurn = (log: StoredEvent[]) =>
          finalAnswers(log).some((answer) => answer.payload.turn_id === turn.payload.turn_id);
        let taker: number | undefined;
        for (let look = 0, until = Date.now() + 60_000; Date.now() < until; look++) {
          taker = await ownerPid();
          if (taker !== undefined && taker !== pid) break;
          // Taken, run and released between two looks: the turn's answer says so.
          if (look % 10 === 9 && answeredTurn(await events(survivors[0]!.url, sessionId))) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(taker).not.toBe(pid);
        takeovers.push(Date.now() - killedAt);
        restarts.push(
          start(scriptFile).then((forja) => {
            processes[owner] = forja;
          }),
        );
        await waitFor(survivors[0]!.url, sessionId, answeredTurn);
        // The killed turn's reservation was settled when its lane was taken over, not when the dead process's
        // heartbeat goes stale (ADR 0130): its turn is answered elsewhere, and nothing of it is still reserved.
        const killedCalls = await onServer<{ outcome: string }>(
          databaseUrl,
          `select outcome from token_usage where process_id = '${killedIdentity!.id}' and session_id = '${sessionId}'`,
        );
        expect(killedCalls.map((row) => row.outcome)).toContain('interrupted');
        expect(killedCalls.map((row) => row.outcome)).not.toContain('reserved');
      }
      await Promise.all(restarts);
      const log = await waitFor(base(), sessionId, settled);
      expect(messageSeqs(log)).toHaveLength(kills);
      expect(turnsStarted(log)).toHaveLength(kills);
      // Every event stored before each kill is still there, in its place.
      for (const before of snapshots) expect(log.slice(0, before.length)).toEqual(before);
      expectOneOwnerAtATime(log);
      // The dead processes' reservations were settled as interrupted at each takeover: spent is the sum of the
      // settled and the interrupted calls.
      let usage: Record<string, any> = {};
      for (const until = Date.now() + 90_000; Date.now() < until; ) {
        usage = await call(`${base()}/api/projects/${project['id']}/usage`, 'GET');
        if (usage['reserved_tokens'] === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(usage['reserved_tokens']).toBe(0);
      const [line] = usage['by_agent_and_model'] as Array<Record<string, number>>;
      expect(usage['by_agent_and_model']).toHaveLength(1);
      expect(line).toMatchObject({ calls: 2 * kills, interrupted_calls: kills, failed_calls: 0 });
      expect(usage['total_tokens']).toBe(line!['input_tokens']! + line!['output_tokens']!);
      console.info(
        `takeover after kill -9 (ms from the kill to a live process holding the lane, lease 2 s): ${takeovers.join(', ')}`,
      );
      // The dead owners' lanes were taken over by the survivors' takeover loop, not only at start-ups.
      expect(alive().some((forja) => forja.output().includes('taking over a lane'))).toBe(true);
      for (const forja of alive()) {
        forja.process.kill('SIGTERM');
        expect(await forja.exited).toBe(0);
      }
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
