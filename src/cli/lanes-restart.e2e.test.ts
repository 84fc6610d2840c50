import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parallelLineScript } from '../conversation/testing/parallel-line-script.ts';

const FORJA_BIN = new URL('../../bin/forja.ts', import.meta.url).pathname;

type StoredEvent = {
  seq: number;
  type: string;
  payload: {
    agent?: string;
    turn_id?: string;
    tool_calls?: unknown;
    to_agent?: string;
    id?: string;
  };
};
interface RunningForja {
  process: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  output: () => string;
}

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

/** `forja serve` on embedded storage with the scripted model, as a user would start it. */
function startServer(dataDirectory: string, scriptFile: string): Promise<RunningForja> {
  const child = spawn(process.execPath, [FORJA_BIN, 'serve'], {
    env: {
      ...process.env,
      PORT: '0',
      FORJA_DATA_DIR: dataDirectory,
      DATABASE_URL: '',
      FORJA_MODEL: `scripted:${scriptFile}`,
      FORJA_MAX_PARALLEL_TURNS: '4',
      LOG_LEVEL: 'info',
    },
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
      if (match) resolve({ process: child, url: match[1]!, exited, output: () => output });
    };
    child.stderr!.on('data', read);
    child.stdout!.on('data', read);
    void exited.then((code) =>
      reject(new Error(`forja serve exited with ${code} before listening:\n${output}`)),
    );
  });
}

async function call(url: string, method: string, body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.json() as Promise<Record<string, any>>;
}

async function events(base: string, sessionId: string): Promise<StoredEvent[]> {
  return (await call(`${base}/api/sessions/${sessionId}/events?limit=1000`, 'GET'))[
    'events'
  ] as StoredEvent[];
}

/** Polls until `ready` holds of the session's events (bounded: 60 s). */
async function waitFor(
  base: string,
  sessionId: string,
  ready: (log: StoredEvent[]) => boolean,
): Promise<StoredEvent[]> {
  for (
    const until = Date.now() + 60_000;
    Date.now() < until;
    await new Promise((resolve) => setTimeout(resolve, 100))
  ) {
    const log = await events(base, sessionId);
    if (ready(log)) return log;
  }
  throw new Error('the session never reached the awaited state');
}

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
    const ready = await call(`${base}/api/sessions/${sessionId}/readiness`, 'POST');
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
