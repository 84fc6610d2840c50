/**
 * The client side of the SSE fan-out benchmark, in a process of its own so that the server's CPU is measured
 * alone: the paced OpenAI-format mock the server's model calls go to, and N event-stream clients of one
 * session over real HTTP (node:http, one connection each). Driven by IPC messages from `sse-fan-out.ts`.
 */
import { request, type IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { openAiStream } from '../../src/gateway/providers/testing/openai-wire.ts';
import type { StreamStep } from '../../src/gateway/providers/testing/sse-test-server-types.ts';
import { startOpenAiTestServer } from '../../src/gateway/providers/testing/start-provider-test-servers.ts';

export type ToClients =
  | { kind: 'open'; url: string; sessionId: string; clients: number }
  | { kind: 'close' }
  | { kind: 'exit' };
export type FromClients =
  | { kind: 'mock'; baseUrl: string }
  | { kind: 'ready' }
  /** Per client: when (performance.timeOrigin + now, ms) its first agent.delta and its agent.done arrived. */
  | { kind: 'done'; firstDeltaAt: number[]; doneAt: number[] };

const TOKENS = 40;
const PACE_MS = 5;
const now = () => performance.timeOrigin + performance.now();
const send = (message: FromClients) => process.send?.(message);

const mock = await startOpenAiTestServer();
const words = 'The bakery opens at dawn and delivers bread to the whole street'.split(' ');
const answer = openAiStream({
  textDeltas: Array.from({ length: TOKENS }, (_, index) => `${words[index % words.length]} `),
  usage: { inputTokens: 200, outputTokens: TOKENS },
});
if (answer.kind !== 'stream') throw new Error('expected a stream');
const paced: StreamStep[] = answer.steps.flatMap((step) => [{ delayMs: PACE_MS }, step]);
mock.respondWith(() => ({ kind: 'stream', steps: paced }));
send({ kind: 'mock', baseUrl: mock.baseUrl });

let open: IncomingMessage[] = [];

process.on('message', (message: ToClients) => {
  if (message.kind === 'open') void openClients(message.url, message.sessionId, message.clients);
  if (message.kind === 'close') {
    for (const response of open) response.destroy();
    open = [];
  }
  if (message.kind === 'exit') void mock.close().then(() => process.exit(0));
});

async function openClients(url: string, sessionId: string, clients: number): Promise<void> {
  const firstDeltaAt = Array.from({ length: clients }, () => Number.NaN);
  const doneAt = Array.from({ length: clients }, () => Number.NaN);
  let finished = 0;
  const readies: Promise<void>[] = [];
  for (let client = 0; client < clients; client += 1) {
    readies.push(
      new Promise<void>((ready, fail) => {
        const outgoing = request(`${url}/api/sessions/${sessionId}/stream`, {
          agent: false,
          headers: { accept: 'text/event-stream' },
        });
        outgoing.on('error', fail);
        outgoing.on('response', (response) => {
          open.push(response);
          response.setEncoding('utf8');
          let buffered = '';
          let isReady = false;
          response.on('data', (chunk: string) => {
            buffered += chunk;
            // Ready once the replay of stored events has begun: the stream is subscribed.
            if (!isReady && buffered.includes('event: session.event')) {
              isReady = true;
              ready();
            }
            if (Number.isNaN(firstDeltaAt[client]!) && buffered.includes('event: agent.delta'))
              firstDeltaAt[client] = now();
            if (Number.isNaN(doneAt[client]!) && buffered.includes('event: agent.done')) {
              doneAt[client] = now();
              finished += 1;
              if (finished === clients) send({ kind: 'done', firstDeltaAt, doneAt });
            }
            // Only the markers matter: keep the tail, where a marker may be split across chunks.
            if (buffered.length > 4096) buffered = buffered.slice(-64);
          });
        });
        outgoing.end();
      }),
    );
  }
  await Promise.all(readies);
  send({ kind: 'ready' });
}
