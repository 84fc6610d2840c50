import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parallelLineScript } from '../conversation/testing/parallel-line-script.ts';
import {
  call,
  events,
  killStartedServers,
  postMessage,
  startServer,
  waitFor,
  writeScript,
  type RunningForja,
  type StoredEvent,
} from './testing/forja-serve.ts';
import { lineToDevs } from './testing/line-to-devs.ts';
import { lostAndDoubled } from './testing/lane-log.ts';
import { scratchServerDatabase } from './testing/server-database.ts';

/**
 * Turns a lane owes (ADR 0345) run exactly once: after kill -9 of a process whose lanes were waiting for a turn
 * slot, and when two processes on one PostgreSQL server are told at the same moment.
 */

afterEach(killStartedServers);

const finalAnswers = (log: StoredEvent[], agent: string) =>
  log.filter(
    (event) =>
      event.type === 'agent.response' &&
      event.payload.agent === agent &&
      event.payload.tool_calls === undefined,
  );
const started = (log: StoredEvent[], agent: string) =>
  log.filter((event) => event.type === 'turn.started' && event.payload.agent === agent);
const inProgress = (log: StoredEvent[], agents: readonly string[]) =>
  agents.some((agent) => started(log, agent).length > finalAnswers(log, agent).length);

/**
 * The line of `parallelLineScript` (three independent modules), where dev:modulo1 and dev:modulo2 each report a
 * block at their kickoff, the Arquiteto answers both in one turn, and each unblocked dev's turn streams for
 * ~3 s: with one turn slot, while one unblocked dev streams the other waits for the slot.
 */
function twoBlockedDevsScript() {
  const line = parallelLineScript({ modules: 3, devDelayMs: 0 });
  const blocked = (dev: string, other: string) => [
    {
      agent: dev,
      tool_calls: [
        {
          name: 'report_blocked',
          arguments: { kind: 'interface', modulo: other, falta: `o contrato de ${other}` },
        },
      ],
    },
    { agent: dev, text: `Bloqueado: falta o contrato de ${other}.` },
    {
      agent: dev,
      text: Array.from({ length: 20 }, (_, index) => `desbloqueado${index}`).join(' '),
      pace_ms: 150,
    },
  ];
  return {
    turns: [
      ...line.turns.filter((turn) => !turn.agent.startsWith('dev:')),
      ...blocked('dev:modulo1', 'modulo2'),
      ...blocked('dev:modulo2', 'modulo1'),
      { agent: 'dev:modulo3', text: 'modulo3 pronto.' },
      {
        agent: 'arquiteto',
        tool_calls: [
          { name: 'answer_block', arguments: { dev: 'dev:modulo1', answer: 'Use um stub.' } },
          { name: 'answer_block', arguments: { dev: 'dev:modulo2', answer: 'Use um stub.' } },
        ],
      },
      { agent: 'arquiteto', text: 'Respondi aos dois bloqueios.' },
    ],
  };
}

describe('owed turns through kill -9, on embedded PGlite', { timeout: 300_000 }, () => {
  it('with FORJA_MAX_PARALLEL_TURNS=1, runs each unblocked dev once although the process died three times while one waited for the slot', async () => {
    const devs = ['dev:modulo1', 'dev:modulo2', 'dev:modulo3'];
    // Each turn the line owes each lane: two devs blocked then unblocked, one dev that just answers.
    const owed: Record<string, number> = { 'dev:modulo1': 2, 'dev:modulo2': 2, 'dev:modulo3': 1 };
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-owed-kill-'));
    const scriptFile = join(dataDirectory, 'script.json');
    writeFileSync(scriptFile, JSON.stringify(twoBlockedDevsScript()));
    const start = () => startServer(dataDirectory, scriptFile, { FORJA_MAX_PARALLEL_TURNS: '1' });
    let forja = await start();
    const sessionId = await lineToDevs(forja.url, devs.length);
    const unblocked = (log: StoredEvent[]) =>
      log.filter((event) => event.type === 'dev.unblocked').length === 2;
    const kills = 3;
    for (let kill = 1; kill <= kills; kill++) {
      // Both devs unblocked, one of them streaming: the other is owed its turn, waiting for the one slot.
      await waitFor(forja.url, sessionId, (log) => unblocked(log) && inProgress(log, devs), 90_000);
      await new Promise((resolve) => setTimeout(resolve, 700));
      forja.process.kill('SIGKILL');
      await forja.exited;
      forja = await start();
    }
    const settled = (log: StoredEvent[]) =>
      devs.every((dev) => finalAnswers(log, dev).length >= owed[dev]!) && !inProgress(log, devs);
    // Not thrown on a timeout: what was lost is counted below.
    await waitFor(forja.url, sessionId, settled, 60_000).catch(() => undefined);
    // Give a late duplicate the time to show itself, then look.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const log = await events(forja.url, sessionId);
    const turns = devs.map((dev) => started(log, dev).length - owed[dev]!);
    const lost = turns.reduce((sum, count) => sum + Math.max(0, -count), 0);
    const doubled = turns.reduce((sum, count) => sum + Math.max(0, count), 0);
    console.info(
      `kill -9 x${kills} with one turn slot: ${lost} dev turns lost, ${doubled} doubled`,
    );
    expect({ lost, doubled }).toEqual({ lost: 0, doubled: 0 });
    for (const dev of devs) expect(finalAnswers(log, dev), dev).toHaveLength(owed[dev]!);
    expect(started(log, 'arquiteto').length).toBe(finalAnswers(log, 'arquiteto').length);
    expect(log.map((event) => event.seq)).toEqual(log.map((_, index) => index + 1));
    forja.process.kill('SIGTERM');
    expect(await forja.exited).toBe(0);
  });
});

const serverUrl = process.env.DATABASE_URL;

describe.each(serverUrl ? [serverUrl] : [])(
  'two forja serve on one PostgreSQL server, told at the same moment',
  { timeout: 300_000 },
  (server) => {
    const databaseUrl = scratchServerDatabase(server);
    // One data directory for the database, shared by both processes (as on one mount).
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-owed-'));
    const start = (scriptFile: string) =>
      startServer(dataDirectory, scriptFile, {
        DATABASE_URL: databaseUrl,
        FORJA_LANE_LEASE_SECONDS: '2',
      });

    it('answers each of two messages sent through both processes at once to six Criativos, three rounds, exactly once', async () => {
      const scriptFile = writeScript(
        Array.from({ length: 200 }, (_, index) => ({
          agent: 'criativo',
          text: `resposta ${index}`,
        })),
      );
      const processes = [await start(scriptFile), await start(scriptFile)];
      const bases = processes.map((running) => running.url);
      const project = await call(`${bases[0]}/api/projects`, 'POST', { name: 'Padaria' });
      const sessions: string[] = [];
      for (let index = 0; index < 6; index++) {
        const session = await call(
          `${bases[0]}/api/projects/${project['id']}/sessions`,
          'POST',
          {},
        );
        sessions.push(session['id'] as string);
        await call(`${bases[1]}/api/sessions/${session['id']}/agents/criativo/start`, 'POST');
      }
      const rounds = 3;
      const settled = (log: StoredEvent[]) =>
        lostAndDoubled(log, 'criativo').lost === 0 &&
        started(log, 'criativo').length === finalAnswers(log, 'criativo').length;
      for (let round = 1; round <= rounds; round++) {
        const statuses = await Promise.all(
          sessions.flatMap((sessionId) =>
            bases.map((base, through) =>
              postMessage(base, sessionId, `rodada ${round} pelo processo ${through + 1}`),
            ),
          ),
        );
        expect(statuses).toEqual(Array(sessions.length * 2).fill(201));
        // Not thrown on a timeout: what was lost is counted below.
        await Promise.all(
          sessions.map((sessionId) =>
            waitFor(bases[round % 2]!, sessionId, settled, 30_000).catch(() => undefined),
          ),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      let lost = 0;
      let doubled = 0;
      for (const sessionId of sessions) {
        const log = await events(bases[0]!, sessionId);
        const counted = lostAndDoubled(log, 'criativo');
        lost += counted.lost;
        doubled += counted.doubled;
        expect(log.filter((event) => event.type === 'chat.message')).toHaveLength(rounds * 2);
      }
      console.info(
        `two processes, ${sessions.length} sessions x ${rounds} rounds x 2 messages: ${lost} lost, ${doubled} doubled`,
      );
      expect({ lost, doubled }).toEqual({ lost: 0, doubled: 0 });
      await stop(...processes);
    });
  },
);

async function stop(...processes: RunningForja[]): Promise<void> {
  for (const running of processes) {
    running.process.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  }
}
