import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  killStartedServers,
  startServer,
  waitFor,
  watchStream,
  type StoredEvent,
} from './testing/forja-serve.ts';

afterEach(killStartedServers);

const answers = (log: StoredEvent[]) =>
  log.filter((event) => event.type === 'agent.response' && event.payload.tool_calls === undefined)
    .length;
const started_ = (log: StoredEvent[]) =>
  log.filter((event) => event.type === 'turn.started').length;

describe('forja serve through kill -9, on embedded PGlite', { timeout: 180_000 }, () => {
  it('leaves no tokens reserved once no turn runs, and counts every interrupted call as spent', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-crash-budget-'));
    const scriptFile = join(dataDirectory, 'script.json');
    const words = Array.from({ length: 60 }, (_, index) => `palavra${index}`).join(' ');
    // Each answer streams for ~6 s (60 words, 100 ms apart): a kill once its words stream lands mid-stream.
    writeFileSync(
      scriptFile,
      JSON.stringify({
        turns: Array.from({ length: 20 }, () => ({ agent: 'criativo', text: words, pace_ms: 100 })),
      }),
    );
    let server = await startServer(dataDirectory, scriptFile);
    const project = await call(`${server.url}/api/projects`, 'POST', { name: 'Padaria' });
    const session = await call(`${server.url}/api/projects/${project['id']}/sessions`, 'POST', {});
    const sessionId = session['id'] as string;
    await call(`${server.url}/api/sessions/${sessionId}/agents/criativo/start`, 'POST');
    await call(`${server.url}/api/sessions/${sessionId}/messages`, 'POST', {
      text: 'Quero vender pão de madrugada.',
    });
    const kills = 4;
    for (let kill = 1; kill <= kills; kill++) {
      // The turn runs (started again after each restart): kill the process in the middle of its stream.
      await waitFor(server.url, sessionId, (log) => started_(log) >= 1 && answers(log) === 0);
      // Its model call streams in this process (a browser sees its words): the kill lands mid-call, however
      // slow the machine is.
      const browser = await watchStream(server.url, sessionId);
      for (const until = Date.now() + 60_000; Date.now() < until; ) {
        if (browser.received.some((message) => message.event === 'agent.delta')) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await browser.close();
      server.process.kill('SIGKILL');
      await server.exited;
      server = await startServer(dataDirectory, scriptFile);
    }
    const log = await waitFor(server.url, sessionId, (log) => answers(log) === 1);
    expect(log.filter((event) => event.type === 'agent.response')).toHaveLength(1);
    const usage = await call(`${server.url}/api/projects/${project['id']}/usage`, 'GET');
    const lines = usage['by_agent_and_model'] as Array<{
      calls: number;
      interrupted_calls: number;
      total_tokens: number;
      input_tokens: number;
      output_tokens: number;
    }>;
    expect(usage['reserved_tokens']).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ calls: kills + 1, interrupted_calls: kills });
    // Spent = the settled call plus every interrupted one (each at least its estimated input).
    expect(usage['total_tokens']).toBe(lines[0]!.input_tokens + lines[0]!.output_tokens);
    expect(lines[0]!.input_tokens).toBeGreaterThan(0);
    expect(lines[0]!.output_tokens).toBeGreaterThan(60);
    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
  // Bursts of messages and kill -9 right after a 201, on both engines: scale-out.e2e.test.ts.
});
