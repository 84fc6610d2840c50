import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parallelLineScript } from '../conversation/testing/parallel-line-script.ts';
import { lineToDevs } from './testing/line-to-devs.ts';
import {
  events,
  killStartedServers,
  startServer as startServerWith,
  waitFor,
  type StoredEvent,
} from './testing/forja-serve.ts';

afterEach(killStartedServers);

const startServer = (dataDirectory: string, scriptFile: string) =>
  startServerWith(dataDirectory, scriptFile, { FORJA_MAX_PARALLEL_TURNS: '4' });

const DEVS = ['dev:modulo1', 'dev:modulo2', 'dev:modulo3'];
const ofType = (log: StoredEvent[], type: string, agent: string) =>
  log.filter((event) => event.type === type && event.payload.agent === agent);

describe('forja serve with three dev lanes', { timeout: 180_000 }, () => {
  it('killed with -9 while three lanes stream, resumes each lane once on restart, with no duplicate agent.response', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-lanes-kill-'));
    const scriptFile = join(dataDirectory, 'script.json');
    // Each dev's turn streams for ~3 s (word by word, 150 ms apart), so all three are mid-stream together.
    writeFileSync(
      scriptFile,
      JSON.stringify(parallelLineScript({ modules: 3, devDelayMs: 0, devPaceMs: 150 })),
    );
    const first = await startServer(dataDirectory, scriptFile);
    const base = first.url;
    const sessionId = await lineToDevs(base, DEVS.length);
    await waitFor(base, sessionId, (log) =>
      DEVS.every((dev) => ofType(log, 'turn.started', dev).length === 1),
    );
    await new Promise((resolve) => setTimeout(resolve, 600));
    first.process.kill('SIGKILL');
    await first.exited;

    const killed = await (async () => {
      const second = await startServer(dataDirectory, scriptFile);
      const log = await waitFor(second.url, sessionId, (log) =>
        DEVS.every((dev) => ofType(log, 'agent.response', dev).length >= 1),
      );
      return { second, log };
    })();
    const { second } = killed;
    // Give any second resume the time to show itself, then look again.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const log = await events(second.url, sessionId);
    expect(log.map((event) => event.seq)).toEqual(log.map((_, index) => index + 1));
    for (const dev of DEVS) {
      expect(ofType(log, 'turn.started', dev)).toHaveLength(1);
      const responses = ofType(log, 'agent.response', dev);
      expect(responses).toHaveLength(1);
      expect(responses[0]!.payload.turn_id).toBe(
        ofType(log, 'turn.started', dev)[0]!.payload.turn_id,
      );
    }
    const resumes = second
      .output()
      .split('\n')
      .filter((line) => line.includes('resuming a turn interrupted by a stop'));
    expect(resumes.map((line) => (JSON.parse(line) as { agent: string }).agent).sort()).toEqual(
      DEVS,
    );
    second.process.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
