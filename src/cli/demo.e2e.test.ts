import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const FORJA_BIN = new URL('../../bin/forja.ts', import.meta.url).pathname;

const started: ChildProcess[] = [];
const directories: string[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

function startDemo(args: string[], dataDirectory = mkdtempSync(join(tmpdir(), 'forja-demo-e2e-'))) {
  directories.push(dataDirectory);
  const child = spawn(process.execPath, [FORJA_BIN, 'demo', ...args], {
    env: {
      ...process.env,
      PORT: '0',
      FORJA_DATA_DIR: dataDirectory,
      DATABASE_URL: 'postgres://ignored-by-the-demo@127.0.0.1:1/x',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const printed = new Promise<{ url: string; stdout: string }>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const match = /Open (http:\/\/\S+) and:/.exec(stdout);
      if (match && stdout.includes('Ctrl-C stops the demo.')) resolve({ url: match[1]!, stdout });
    });
    void exited.then((code) =>
      reject(
        new Error(`forja demo exited with ${code} before printing its URL:\n${stdout}\n${stderr}`),
      ),
    );
  });
  printed.catch(() => undefined); // awaited by the tests that expect the demo to start
  return { child, exited, printed, dataDirectory, output: () => ({ stdout, stderr }) };
}

async function post(url: string, body?: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return (await response.json()) as { id: string };
}

/** Reads the session's SSE stream until the turn is done; returns the text deltas it carried. */
async function deltasOfOneTurn(url: string): Promise<string[]> {
  const response = await fetch(url);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const deltas: string[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const frames = buffer.split('\n\n');
    buffer = frames.pop()!;
    for (const frame of frames) {
      const data = frame.split('\n').find((line) => line.startsWith('data: '));
      if (!data) continue;
      const message = JSON.parse(data.slice('data: '.length)) as { type?: string; text?: string };
      if (message.type === 'agent.delta') deltas.push(message.text!);
      if (message.type === 'agent.done') {
        await reader.cancel();
        return deltas;
      }
    }
  }
  return deltas;
}

describe('forja demo', { timeout: 120_000 }, () => {
  it('serves the line demo on its own embedded database, prints the URL and the steps, streams paced answers, resumes after a restart', async () => {
    const demo = startDemo(['line']);
    const { url, stdout } = await demo.printed;
    expect(stdout).toContain('production-line');
    expect(stdout).toMatch(/1\. .*Create project/);
    expect(stdout).toContain(`Press "I'm ready to produce"`);
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    expect(JSON.stringify(await health.json())).not.toContain('ignored-by-the-demo');

    const project = await post(`${url}/api/projects`, { name: 'Padaria' });
    const session = await post(`${url}/api/projects/${project.id}/sessions`, {});
    await post(`${url}/api/sessions/${session.id}/agents/criativo/start`);
    const streamed = deltasOfOneTurn(`${url}/api/sessions/${session.id}/stream`);
    const sentAt = performance.now();
    await post(`${url}/api/sessions/${session.id}/messages`, {
      text: 'Quero vender pão de madrugada.',
    });
    const deltas = await streamed;
    // The turn's one model call, word by word after its delay: it spoke and only recorded the rule, so the turn
    // ends there (ADR 0380) with no second call.
    expect(deltas).toEqual(['Anotei ', 'a ', 'regra. ', 'Quem ', 'vai ', 'receber ', 'o ', 'pão?']);
    expect(performance.now() - sentAt).toBeGreaterThanOrEqual(400);

    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);

    // Started again on the same data, the script goes on where the log says instead of replaying its first turn.
    const again = startDemo(['line'], demo.dataDirectory);
    const resumed = await again.printed;
    const { events: stored } = (await (
      await fetch(`${resumed.url}/api/sessions/${session.id}/events?after=0&limit=1000`)
    ).json()) as { events: Array<{ seq: number }> };
    const next = deltasOfOneTurn(
      `${resumed.url}/api/sessions/${session.id}/stream?after=${stored.at(-1)!.seq}`,
    );
    await post(`${resumed.url}/api/sessions/${session.id}/messages`, { text: 'Para os vizinhos.' });
    expect((await next).join('')).toBe(
      'Anotado. Quando quiser, aperte "Estou pronto para produzir".',
    );
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });

  it('refuses an unknown demo with exit code 2, naming the ones there are', async () => {
    const demo = startDemo(['bakery']);
    expect(await demo.exited).toBe(2);
    expect(demo.output().stderr).toContain('unknown demo "bakery"; choose one of: criativo, line');
  });
});
