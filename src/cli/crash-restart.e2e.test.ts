import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  killStartedServers,
  startServer,
  waitFor,
  type StoredEvent,
} from './testing/forja-serve.ts';

afterEach(killStartedServers);

const answers = (log: StoredEvent[]) =>
  log.filter((event) => event.type === 'agent.response' && event.payload.tool_calls === undefined)
    .length;
const started_ = (log: StoredEvent[]) =>
  log.filter((event) => event.type === 'turn.started').length;

describe('forja serve through kill -9 and bursts, on embedded PGlite', { timeout: 180_000 }, () => {
  it('leaves no tokens reserved once no turn runs, and counts every interrupted call as spent', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-crash-budget-'));
    const scriptFile = join(dataDirectory, 'script.json');
    const words = Array.from({ length: 60 }, (_, index) => `palavra${index}`).join(' ');
    // Each answer streams for ~6 s (60 words, 100 ms apart): a kill 0.7 s after the turn starts lands mid-stream.
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
      await new Promise((resolve) => setTimeout(resolve, 700));
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

  it('answers after the restart every message acknowledged (201) just before a kill -9', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-crash-ack-'));
    const scriptFile = join(dataDirectory, 'script.json');
    const words = Array.from({ length: 30 }, (_, index) => `palavra${index}`).join(' ');
    // Each answer streams for ~3 s: a message posted meanwhile waits in the lane, acknowledged but not started.
    writeFileSync(
      scriptFile,
      JSON.stringify({
        turns: Array.from({ length: 30 }, () => ({ agent: 'criativo', text: words, pace_ms: 100 })),
      }),
    );
    let server = await startServer(dataDirectory, scriptFile);
    const project = await call(`${server.url}/api/projects`, 'POST', { name: 'Padaria' });
    const session = await call(`${server.url}/api/projects/${project['id']}/sessions`, 'POST', {});
    const sessionId = session['id'] as string;
    await call(`${server.url}/api/sessions/${sessionId}/agents/criativo/start`, 'POST');
    const messageSeqs = (log: StoredEvent[]) =>
      log.filter((event) => event.type === 'chat.message').map((event) => event.seq);
    const turnFor = (log: StoredEvent[], seq: number) =>
      log.some((event) => event.type === 'turn.started' && event.seq > seq);
    const kills = 3;
    for (let kill = 1; kill <= kills; kill++) {
      const first = await fetch(`${server.url}/api/sessions/${sessionId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: `primeira ${kill}` }),
      });
      expect(first.status).toBe(201);
      await waitFor(server.url, sessionId, (log) =>
        messageSeqs(log).every((seq) => turnFor(log, seq)),
      );
      const second = await fetch(`${server.url}/api/sessions/${sessionId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: `segunda ${kill}` }),
      });
      expect(second.status).toBe(201);
      server.process.kill('SIGKILL');
      await server.exited;
      server = await startServer(dataDirectory, scriptFile);
    }
    // Every message gets a turn of its own after it, and every turn ends once with one answer.
    const log = await waitFor(
      server.url,
      sessionId,
      (log) =>
        messageSeqs(log).every((seq) => turnFor(log, seq)) &&
        log.filter((event) => event.type === 'turn.started').length === answers(log),
    );
    expect(messageSeqs(log)).toHaveLength(2 * kills);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const settled = (
      await call(`${server.url}/api/sessions/${sessionId}/events?limit=1000`, 'GET')
    )['events'] as StoredEvent[];
    expect(settled.filter((event) => event.type === 'turn.started')).toHaveLength(answers(settled));
    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('answers every one of 50 concurrent messages to one session', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-burst-'));
    const scriptFile = join(dataDirectory, 'script.json');
    writeFileSync(
      scriptFile,
      JSON.stringify({
        turns: Array.from({ length: 60 }, (_, index) => ({
          agent: 'criativo',
          text: `resposta ${index}`,
        })),
      }),
    );
    const server = await startServer(dataDirectory, scriptFile);
    const project = await call(`${server.url}/api/projects`, 'POST', { name: 'Padaria' });
    const session = await call(`${server.url}/api/projects/${project['id']}/sessions`, 'POST', {});
    const sessionId = session['id'] as string;
    await call(`${server.url}/api/sessions/${sessionId}/agents/criativo/start`, 'POST');
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        fetch(`${server.url}/api/sessions/${sessionId}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text: `mensagem ${index}` }),
        }).then((response) => response.status),
      ),
    );
    expect(statuses.every((status) => status === 201)).toBe(true);
    const log = await waitFor(server.url, sessionId, (log) => answers(log) === 50);
    const messages = log.filter((event) => event.type === 'chat.message');
    expect(messages).toHaveLength(50);
    // The last message of the burst is answered too.
    expect(
      log.some((event) => event.type === 'agent.response' && event.seq > messages.at(-1)!.seq),
    ).toBe(true);
    expect(log.filter((event) => event.type === 'turn.started')).toHaveLength(50);
    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
