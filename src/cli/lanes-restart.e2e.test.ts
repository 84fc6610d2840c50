import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parallelLineScript } from '../conversation/testing/parallel-line-script.ts';
import {
  call,
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
    const project = await call(`${base}/api/projects`, 'POST', { name: 'Padaria' });
    const session = await call(`${base}/api/projects/${project['id']}/sessions`, 'POST', {});
    const sessionId = session['id'] as string;
    await call(`${base}/api/sessions/${sessionId}/agents/criativo/start`, 'POST');
    await call(`${base}/api/sessions/${sessionId}/messages`, 'POST', {
      text: 'Quero vender pão de madrugada.',
    });
    await waitFor(
      base,
      sessionId,
      (log) =>
        log.filter(
          (event) => event.type === 'agent.response' && event.payload.tool_calls === undefined,
        ).length >= 1,
    );
    await call(`${base}/api/sessions/${sessionId}/messages`, 'POST', {
      text: 'Para os vizinhos do bairro.',
    });
    await waitFor(
      base,
      sessionId,
      (log) =>
        log.filter(
          (event) => event.type === 'agent.response' && event.payload.tool_calls === undefined,
        ).length >= 2,
    );
    const ready = await call(`${base}/api/sessions/${sessionId}/readiness?wait=true`, 'POST');
    await call(`${base}/api/handoffs/${ready['handoff'].id}/accept`, 'POST');
    const offeredToArquiteto = await waitFor(base, sessionId, (log) =>
      log.some(
        (event) => event.type === 'handoff.offered' && event.payload.to_agent === 'arquiteto',
      ),
    );
    const toArquiteto = offeredToArquiteto.find(
      (event) => event.type === 'handoff.offered' && event.payload.to_agent === 'arquiteto',
    )!;
    await call(
      `${base}/api/handoffs/${(toArquiteto.payload as { handoff_id?: string }).handoff_id}/accept`,
      'POST',
    );
    await waitFor(
      base,
      sessionId,
      (log) =>
        log.filter(
          (event) => event.type === 'handoff.offered' && event.payload.to_agent?.startsWith('dev:'),
        ).length === 3 &&
        ofType(log, 'agent.response', 'arquiteto').some(
          (event) => event.payload.tool_calls === undefined,
        ),
    );
    await call(`${base}/api/sessions/${sessionId}/dev-handoffs/accept`, 'POST');
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
