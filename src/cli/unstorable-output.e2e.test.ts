import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  killStartedServers,
  postMessage,
  startServer,
  waitFor,
  writeScript,
  type StoredEvent,
} from './testing/forja-serve.ts';

afterEach(killStartedServers);

const textOf = (event: StoredEvent | undefined) => (event?.payload as { text?: string })?.text;
const lastAnswer = (log: StoredEvent[]) =>
  textOf(log.filter((event) => event.type === 'agent.response').at(-1));

describe('forja serve given what a database cannot store, on embedded PGlite', {
  timeout: 180_000,
}, () => {
  it('answers, stays up, and after a restart comes back and answers the next message', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-unstorable-'));
    const scriptFile = writeScript([
      {
        agent: 'criativo',
        text: 'Metade \uD800 de um par.',
        tool_calls: [
          { name: 'emit_artifact', arguments: { type: 'business_rule', content: 'a\u0000b' } },
        ],
      },
      {
        agent: 'criativo',
        text: 'Registro sem o caractere.',
        expect: { messages: ['hold a NUL character or a lone surrogate at .content'] },
      },
      { agent: 'criativo', text: 'De volta.', expect: { messages: ['Ainda aí?'] } },
    ]);
    let server = await startServer(dataDirectory, scriptFile);
    const project = await call(`${server.url}/api/projects`, 'POST', { name: 'Padaria' });
    const session = await call(`${server.url}/api/projects/${project['id']}/sessions`, 'POST', {});
    const sessionId = session['id'] as string;
    await call(`${server.url}/api/sessions/${sessionId}/agents/criativo/start`, 'POST');
    expect(await postMessage(server.url, sessionId, 'Registre a regra.')).toBe(201);
    const log = await waitFor(
      server.url,
      sessionId,
      (events) => lastAnswer(events) === 'Registro sem o caractere.',
    );
    expect(textOf(log.find((event) => event.type === 'agent.response'))).toBe(
      'Metade \uFFFD de um par.',
    );

    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    server = await startServer(dataDirectory, scriptFile);
    expect(await postMessage(server.url, sessionId, 'Ainda aí?')).toBe(201);
    const after = await waitFor(
      server.url,
      sessionId,
      (events) => lastAnswer(events) === 'De volta.',
    );
    expect(after.filter((event) => event.type === 'turn.failed')).toEqual([]);
    expect(server.process.exitCode).toBeNull();
  });
});
